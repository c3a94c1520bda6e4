# shellcheck shell=bash
# xcp_helper.bash -- what the xcp*.bats files share: xcp run as the tests
# run it, the trees they copy and how they look at them, and the
# processes of a copy running in the background.  Loaded after
# test_helper.

MIB=$((1024 * 1024))

# xcp as the tests run it: through XCP_WRAP, a command prefix (env -i for
# /proc/self/environ, enosys-exec for the fallbacks), empty by default.
XCP_WRAP=()
xcp() {
  "${XCP_WRAP[@]}" "$NC_BINDIR/xcp" "$@"
}

# make_big FILE MIB: MIB mebibytes of random data, fast (a random 16 MiB
# block repeated, each copy starting with its own number so that no two
# blocks are equal).
make_big() {
  local i
  head -c $((16 * MIB)) /dev/urandom >"$1.block"
  for ((i = 0; i < $2 / 16; i++)); do
    printf '%016d' "$i"
    tail -c +17 "$1.block"
  done >"$1"
  head -c $(($2 % 16 * MIB)) "$1.block" >>"$1"
  rm -f "$1.block"
  assert_size "$1" $(($2 * MIB))
}

# make_tree DIR: files, an executable, directories, a hard link, symbolic
# links (to a file, dangling, upward), a FIFO and (as root) a device
# node and an owner other than root; modes of every sort; times set to
# fixed instants with nanoseconds, the directories' last.
TREE_PATHS=(. file exec sub sub/hard sub/deeper sub/deeper/f2 link dangling
  sub/up fifo)
make_tree() {
  mkdir -p "$1/sub/deeper"
  (
    cd "$1" || exit 1
    head -c 70000 /dev/urandom >file
    printf '#!/bin/sh\n' >./exec
    echo two >sub/deeper/f2
    ln file sub/hard
    ln -s file link
    ln -s nowhere/at/all dangling
    ln -s ../file sub/up
    mkfifo fifo
    chmod 0640 file
    chmod 0711 exec
    chmod 0662 fifo
    chmod 0705 sub
    chmod 0750 sub/deeper
    chmod 0751 .
    if [[ $(id -u) -eq 0 ]]; then
      mknod null c 1 3
      chmod 0604 null
      chown 1234:5678 file sub/deeper
      chown -h 4321:8765 link
      chown 2222:3333 fifo null
    fi
    local p n=1
    for p in file exec sub/deeper/f2 link dangling sub/up fifo null; do
      [[ -e $p || -L $p ]] || continue
      touch -h -d "2001-02-03 04:05:0$n.12345678$n" "$p"
      touch -h -a -d "2002-03-04 05:06:0$n.98765432$n" "$p"
      n=$((n + 1))
    done
    touch -d "2003-01-01 00:00:00.000000001" sub/deeper
    touch -d "2004-01-01 00:00:00.999999999" sub
    touch -d "2005-06-07 08:09:10.555555555" .
  ) || fail "cannot build the tree"
  if [[ $(id -u) -eq 0 ]]; then
    TREE_PATHS+=(null)
  fi
}

# listing DIR [FIELD]...: one line per entry below DIR, sorted by path:
# the path, the type (ls's letter), then the fields LISTING_FIELDS (each
# test file sets its own) and FIELD... ask for, in this order whatever
# theirs:
#   top        DIR itself too, as "."
#   mode       the permissions, set-ID and sticky bits (not of a symbolic
#              link, whose are always 0777)
#   owner      uid:gid
#   size       of a regular file
#   target     the text of a symbolic link
#   mtime:TYPES  the mtime in ns, or "new" for one of the last hour (made
#              by this run: two copies are not made at the same instant),
#              of the entries whose type letter is in TYPES, or not in
#              TYPES after a ^ (mtime:dl, mtime:^l)
#   xattrs     the names of the user.* extended attributes (not of a link)
#   inode      of anything but a directory, its number: where two trees
#              link to one source
#   group      instead, the first path of its inode in DIR: where two
#              trees were made alike in two places
#   links      of anything but a directory, its link count
LISTING_FIELDS=()
listing() {
  python3 - "$1" "${LISTING_FIELDS[@]}" "${@:2}" <<'EOF'
import os, stat, sys, time

old = time.time_ns() - 3600 * 10**9
fields = set(sys.argv[2:])
mtime_types = next((f[6:] for f in fields if f.startswith("mtime:")), None)
os.chdir(sys.argv[1])
paths = ["."] if "top" in fields else []
for top, dirs, files in os.walk("."):
    paths += [os.path.join(top, name) for name in dirs + files]
first = {}
out = []
for p in sorted(paths):
    st = os.lstat(p)
    m = st.st_mode
    kind = stat.filemode(m)[0]
    link, isdir = stat.S_ISLNK(m), stat.S_ISDIR(m)
    key = (st.st_dev, st.st_ino)
    first.setdefault(key, p)
    s = "%s %s" % (p, kind)
    if "mode" in fields and not link:
        s += " %04o" % stat.S_IMODE(m)
    if "owner" in fields:
        s += " %d:%d" % (st.st_uid, st.st_gid)
    if "size" in fields and stat.S_ISREG(m):
        s += " size %d" % st.st_size
    if "target" in fields and link:
        s += " -> " + os.readlink(p)
    if mtime_types is not None and (
            kind not in mtime_types[1:] if mtime_types.startswith("^")
            else kind in mtime_types):
        s += " mtime %s" % (st.st_mtime_ns if st.st_mtime_ns < old
                            else "new")
    if "xattrs" in fields and not link:
        s += " xattrs %s" % sorted(n for n in os.listxattr(p)
                                   if n.startswith("user."))
    if not isdir and "group" in fields:
        s += " group %s" % first[key]
    elif not isdir and "inode" in fields:
        s += " inode %d" % st.st_ino
    if not isdir and "links" in fields:
        s += " links %d" % st.st_nlink
    out.append(s)
print("\n".join(out))
EOF
}

# tree_stat DIR: type, mode, owner, device number, times (ns) of every
# path of TREE_PATHS, one a line; stat of a name reads no directory, so
# the atimes are not changed by looking.
tree_stat() {
  (cd "$1" && stat -c '%n %F %a %u:%g %t:%T mtime %y atime %x' -- "${TREE_PATHS[@]}")
}

# tree_listing DIR: depth, type, mode, size, mtime and name of everything
# in DIR, sorted: for trees too deep for diff -r, where whole paths would
# make tens of megabytes to sort.
tree_listing() {
  (cd "$1" && find . -printf '%d %y %m %s %T@ %f\n' | LC_ALL=C sort)
}

# descendants PID: the pids of PID's children, grandchildren...
descendants() {
  local child
  # shellcheck disable=SC2013 # the file is a list of words
  for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

# xcp_below PID: the pid of the xcp running below PID, if any yet.
xcp_below() {
  local p
  for p in $(descendants "$1"); do
    if [[ $(readlink "/proc/$p/exe" 2>/dev/null) == "$NC_BINDIR/xcp" ]]; then
      echo "$p"
      return
    fi
  done
}

# writing_to PID DIR: PID has a file of DIR open that has data in it (the
# unnamed temporary file, or a named one).
writing_to() {
  local fd target
  for fd in /proc/"$1"/fd/*; do
    target=$(readlink "$fd" 2>/dev/null) || continue
    [[ $target == "$2"/* ]] || continue
    [[ $(stat -L -c %s "$fd" 2>/dev/null || echo 0) -gt 0 ]] && return 0
  done
  return 1
}

# mount_ext4 DIR SIZE: an ext4 image on a loop device, mounted on DIR
# (created), as root; skip where that cannot be had.
mount_ext4() {
  require_root
  require_cmd mkfs.ext4 losetup
  truncate -s "$2" "$1.img"
  mkfs.ext4 -q -F "$1.img" || skip "mkfs.ext4 failed"
  mkdir "$1"
  mount -o loop "$1.img" "$1" || skip "cannot mount a loop device"
}
