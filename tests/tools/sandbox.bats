#!/usr/bin/env bats
# sandbox.bats -- unshare-run's mount steps (bubblewrap's options), from
# the outside.
#
# Every mount happens inside the sandbox: unshare-run makes its own mount
# namespace and builds a new root in a fresh tmpfs, so nothing here
# mounts on the machine's paths; a bind's source is a directory of the
# test's own.  The root of most sandboxes is built from the read-only
# /usr and the symlinks of a merged /usr (BASE), so that a shell runs
# there.  Root tests skip without root (CI runs as root); the same steps
# run as uid 65534 with -U -r where unprivileged user namespaces are
# allowed.

load test_helper

setup() {
  nc_setup
  skip_under_qemu "the mount API under qemu-user: tests/lib/mount-test"
  BASE=(--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib
    --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin)
}

# Unprivileged user namespaces, for the tests as uid 65534.
require_userns() {
  require_nobody
  require_userns_enabled
}

# Shell text run in a sandbox: names the files of its /proc that could
# harm the machine and are writable (none, once --proc covered them).
# shellcheck disable=SC2016 # expanded in the sandbox
PROC_COVERED='for f in /proc/sys /proc/sysrq-trigger /proc/irq /proc/bus; do
  [ ! -e "$f" ] || [ ! -w "$f" ] || echo "$f writable"; done'

# sandbox ARG...: unshare-run with BASE then ARG..., its output separate
# from its errors.
sandbox() {
  run --separate-stderr unshare-run "${BASE[@]}" "$@"
}

@test "--bind: writable, seen outside; --ro-bind: EROFS; --remount-ro" {
  require_root
  mkdir w
  sandbox --bind "$PWD/w" /w -- sh -c 'echo hi >/w/f'
  assert_success
  assert_equal "$(cat w/f)" hi
  sandbox --ro-bind "$PWD/w" /w -- sh -c 'echo no >/w/f'
  assert_failure
  assert_err -p "Read-only file system"
  assert_equal "$(cat w/f)" hi
  sandbox --bind "$PWD/w" /w --remount-ro /w -- sh -c 'echo no >/w/g'
  assert_failure
  assert_err -p "Read-only file system"
  assert_file_not_exists w/g
}

@test "--ro-bind of a file, missing parents made in the new root" {
  require_root
  echo data >f
  sandbox --ro-bind "$PWD/f" /deep/in/f -- sh -c \
    'cat /deep/in/f; stat -c %a /deep /deep/in'
  assert_success
  assert_output $'data\n755\n755'
}

@test "--dev-bind keeps device files usable, --bind makes them nodev" {
  require_root
  sandbox --dev-bind /dev /dev -- sh -c 'echo x >/dev/null && echo ok'
  assert_success
  assert_output ok
  sandbox --bind /dev /dev -- sh -c 'echo x >/dev/null'
  assert_failure
  assert_err -p "Permission denied"
}

@test "the -try forms: a missing SRC mounts nothing; without -try, a failure" {
  require_root
  local opt
  for opt in --bind-try --ro-bind-try --dev-bind-try; do
    sandbox "$opt" /nonexistent-src /x -- sh -c 'test -e /x || echo none'
    assert_success
    assert_output none
  done
  sandbox --bind /nonexistent-src /x -- sh -c 'echo ran'
  assert_failure 1
  assert_output ''
  assert_err \
    "unshare-run: --bind '/nonexistent-src' '/x': open_tree: No such file or directory"
}

@test "--tmpfs with --size and --perms; the next --tmpfs has the defaults" {
  require_root
  sandbox --size 1M --perms 1777 --tmpfs /t --tmpfs /u -- sh -c \
    'stat -c %a /t /u; stat -f -c "%b %S %T" /t'
  assert_success
  local blocks bsize type
  read -r blocks bsize type <<<"${lines[2]}"
  assert_equal "${lines[0]} ${lines[1]}" "1777 755"
  assert_equal "$((blocks * bsize))" 1048576
  assert_equal "$type" tmpfs
  sandbox --size 4K --perms 0700 --tmpfs /t -- sh -c \
    'head -c 8192 /dev/zero >/t/big' </dev/null
  assert_failure
}

@test "--perms and --size: bubblewrap's errors for a dangling one" {
  require_root
  sandbox --perms 0700 --bind /usr /x -- true
  assert_failure 2
  assert_err -p "--perms must be followed by an option that creates a file"
  sandbox --size 1M --dir /x -- true
  assert_failure 2
  assert_err -p "--size must be followed by --tmpfs"
  sandbox --perms 1 --perms 2 --dir /x -- true
  assert_failure 2
  assert_err -p "--perms given twice for the same action"
  sandbox --perms 0999 --dir /x -- true
  assert_failure 2
  assert_err -p "invalid --perms '0999': an octal mode is expected"
}

@test "--dir, --symlink, --chmod" {
  require_root
  sandbox --perms 0711 --dir /d --dir /e --chmod 0700 /e \
    --symlink ../d /e2/d -- sh -c 'stat -c %a /d /e; readlink /e2/d'
  assert_success
  assert_output $'711\n700\n../d'
}

@test "--file and --bind-data from a here-document's descriptor" {
  require_root
  sandbox --perms 0640 --file 3 /etc/f --file 4 /etc/g -- sh -c \
    'cat /etc/f /etc/g; stat -c %a /etc/f /etc/g' 3<<<"from three" 4<<<"four"
  assert_success
  assert_output $'from three\nfour\n640\n666'
  sandbox --bind-data 3 /etc/b --ro-bind-data 4 /etc/r -- sh -c \
    'cat /etc/b /etc/r; stat -c %a /etc/b; echo x >>/etc/b && echo rw;
     echo x >>/etc/r' 3<<<"bound" 4<<<"read-only"
  assert_failure
  assert_output $'bound\nread-only\n600\nrw'
  assert_err -p "Read-only file system"
}

@test "--bind-data where a mount attached nowhere cannot be cloned (Linux 6.15)" {
  require_root
  require_strace
  # The second open_tree, --bind-data's, answers as before Linux 6.15.
  run --separate-stderr strace -f -qq -o trace \
    -e trace=open_tree,move_mount,umount2 \
    -e inject=open_tree:error=EINVAL:when=2 unshare-run "${BASE[@]}" \
    --ro-bind-data 3 /etc/r -- sh -c 'cat /etc/r; grep -c " /etc/r " \
    /proc/self/mountinfo 2>/dev/null || echo x >>/etc/r' 3<<<"read-only"
  assert_failure
  assert_output "read-only"
  assert_err -p "Read-only file system"
  grep -q 'open_tree(.*"data".*= -1 EINVAL (Invalid argument) (INJECTED)' \
    trace || fail "no injected failure: $(cat trace)"
  assert_equal "$(grep -c 'open_tree(.*"data"' trace)" 2
  grep -qE 'umount2\(".", MNT_DETACH\) += 0' trace \
    || fail "the data's tmpfs not detached: $(cat trace)"
}

@test "--file: a long file whole, and a bad descriptor fails closed" {
  require_root
  head -c 300000 /dev/urandom >big
  sandbox --file 3 /big -- cat /big 3<big
  assert_success
  assert_equal "$(unshare-run "${BASE[@]}" --file 3 /big -- cat /big 3<big |
    cksum)" "$(cksum <big)"
  # Refused at the start, before anything is unshared: at its step, the
  # number could be one of unshare-run's own descriptors.
  sandbox --file 9 /x -- echo ran
  assert_failure 1
  assert_output ''
  assert_err "unshare-run: --file 9: Bad file descriptor"
}

@test "--dev: the minimal /dev, a private devpts, shm" {
  require_root
  sandbox --dev /dev -- sh -c 'ls -A /dev | tr "\n" " "; echo;
    echo x >/dev/null && head -c 3 /dev/zero | od -An -tx1;
    stat -f -c %T /dev/pts /dev/shm; stat -c %a /dev/shm;
    readlink /dev/ptmx /dev/fd; ls -A /dev/pts | tr "\n" " "'
  assert_success
  assert_line -n 0 "core fd full null ptmx pts random shm stderr stdin stdout tty urandom zero "
  assert_line -n 1 " 00 00 00"
  assert_line -n 2 devpts
  assert_line -n 3 tmpfs
  assert_line -n 4 1777
  assert_line -n 5 pts/ptmx
  assert_line -n 6 /proc/self/fd
  # A new instance: only its ptmx, none of the machine's terminals.
  assert_line -n 7 "ptmx "
}

@test "--dev: /dev/tty without a terminal is refused" {
  require_root
  run --separate-stderr setsid unshare-run "${BASE[@]}" --dev /dev -- \
    sh -c 'echo x >/dev/tty' </dev/null
  assert_failure
  assert_err -p "No such device or address"
}

@test "--proc in a new PID namespace shows that namespace" {
  require_root
  sandbox -p --proc /proc -- sh -c 'echo $$; cat /proc/1/comm; ls /proc |
    grep -c "^[0-9]"'
  assert_success
  assert_line -n 0 2
  assert_line -n 1 unshare-run
  ((lines[2] <= 4)) || fail "the machine's processes: ${lines[2]}"
}

@test "--mqueue with a new IPC namespace" {
  require_root
  sandbox -i --mqueue /dev/mqueue -- stat -f -c %T /dev/mqueue
  assert_success
  assert_output mqueue
}

@test "the steps run in the order given: a later mount hides an earlier one" {
  require_root
  sandbox --dir /a/b --tmpfs /a -- sh -c 'test -e /a/b && echo b || echo no b'
  assert_output "no b"
  sandbox --tmpfs /a --dir /a/b -- sh -c 'test -e /a/b && echo b'
  assert_output b
}

@test "DST is resolved in the new root: absolute symlinks and .. stay in it" {
  require_root
  sandbox --dir /real --symlink /real /link --tmpfs /link/t \
    --symlink ../../.. /a/up --dir /a/up/made -- sh -c \
    'stat -f -c %T /real/t; test -d /made && echo made'
  assert_success
  assert_output $'tmpfs\nmade'
  assert_file_not_exists /made
  # A bind through Debian's /etc/resolv.conf, an absolute link into /run,
  # lands in /run.
  echo "nameserver ::1" >resolv
  sandbox --tmpfs /run --file 3 /run/resolv.conf \
    --symlink /run/resolv.conf /etc/resolv.conf \
    --ro-bind "$PWD/resolv" /etc/resolv.conf -- cat /run/resolv.conf \
    3</dev/null
  assert_success
  assert_output "nameserver ::1"
  # A file written, or a mode changed, is DST itself: a link at its end
  # (planted where DST's directory is bound from outside) is refused, as
  # bwrap refuses an absolute one.
  sandbox --tmpfs /run --symlink /run/resolv.conf /etc/resolv.conf \
    --file 3 /etc/resolv.conf -- true 3<<<"nameserver ::1"
  assert_failure 1
  assert_err "unshare-run: --file 3 '/etc/resolv.conf': openat2: Too many levels of symbolic links"
  sandbox --dir /d --symlink d /l --chmod 0700 /l -- true
  assert_failure 1
  assert_err "unshare-run: --chmod 0700 '/l': openat2: Too many levels of symbolic links"
}

@test "the old root is gone: one / in the mount table, and the steps' own" {
  require_root
  # shellcheck disable=SC2016 # for the shell unshare-run starts.
  run --separate-stderr unshare-run --ro-bind / / --tmpfs /tmp \
    --proc /proc --dev /dev -p -- sh -c \
    'awk '\''$5 == "/"'\'' /proc/self/mountinfo | wc -l; touch /x'
  assert_failure
  assert_line -n 0 1
  assert_err -p "Read-only file system"
}

@test "--file, --bind-data: a descriptor the caller has not open, refused at the start" {
  require_root
  sandbox --file 7 /x -- true
  assert_failure 1
  assert_err "unshare-run: --file 7: Bad file descriptor"
  sandbox --ro-bind-data 8 /y -- true
  assert_failure 1
  assert_err "unshare-run: --ro-bind-data 8: Bad file descriptor"
}

@test "fail closed: a missing call names itself and the Linux it needs" {
  require_root
  require_strace_inject
  run --separate-stderr strace -f -o /dev/null -e inject=open_tree:error=ENOSYS \
    unshare-run "${BASE[@]}" -- echo ran
  assert_failure 1
  assert_output ''
  assert_err \
    "unshare-run: --ro-bind '/usr' '/usr': open_tree is not in this kernel (Linux 5.2 or later)"
  run --separate-stderr strace -f -o /dev/null \
    -e inject=mount_setattr:error=ENOSYS unshare-run --tmpfs /t -- echo ran
  assert_failure 1
  assert_output ''
  assert_err \
    "unshare-run: cannot build the new root: mount_setattr is not in this kernel (Linux 5.12 or later)"
  run --separate-stderr strace -f -o /dev/null -e inject=pivot_root:error=EPERM \
    unshare-run "${BASE[@]}" -- echo ran
  assert_failure 1
  assert_output ''
  assert_err \
    "unshare-run: cannot enter the new root: pivot_root: Operation not permitted"
}

@test "strace: the steps are open_tree, mount_setattr, move_mount, fsopen; no mount(2)" {
  require_root
  require_strace
  strace -f -qq -o trace -e trace=mount,open_tree,move_mount,mount_setattr,fsopen,fsmount,pivot_root \
    unshare-run "${BASE[@]}" --tmpfs /tmp --proc /proc --dev /dev -p -- true
  grep -q 'open_tree(AT_FDCWD, "/usr", OPEN_TREE_CLONE|OPEN_TREE_CLOEXEC|AT_RECURSIVE)' trace \
    || fail "no recursive clone: $(cat trace)"
  grep -q 'mount_setattr(.*AT_RECURSIVE.*MOUNT_ATTR_RDONLY' trace \
    || fail "no recursive read-only attribute: $(cat trace)"
  grep -q 'move_mount(.*MOVE_MOUNT_F_EMPTY_PATH|MOVE_MOUNT_T_EMPTY_PATH' trace \
    || fail "no move_mount: $(cat trace)"
  local fs
  for fs in tmpfs proc devpts; do
    grep -q "fsopen(\"$fs\"" trace || fail "no fsopen of $fs: $(cat trace)"
  done
  grep -q 'pivot_root(".", ".")' trace || fail "no pivot_root"
  # The one mount(2): "/" made private in the new namespace, before.
  run grep -v 'mount("none", "/", NULL, MS_REC|MS_PRIVATE, NULL)' \
    <(grep -E '^[0-9]+ +mount\(' trace)
  assert_output ''
}

@test "as uid 65534 with -U -r: the bwrap one-liner, --dev, --proc, --file" {
  require_userns
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -U -r -p \
    "${BASE[@]}" --tmpfs /tmp --dev /dev --proc /proc \
    --size 64K --perms 0700 --tmpfs /small --file 3 /etc/f -- sh -c \
    'id -u; echo $$; echo x >/dev/null && echo null; cat /etc/f;
     stat -c %a /small; touch /tmp/a && echo tmp; touch /usr/x' 3<<<"data"
  assert_failure
  assert_output $'0\n2\nnull\ndata\n700\ntmp'
  assert_err -p "Read-only file system"
}

@test "as uid 65534: --proc without -p binds the caller's; --mqueue needs -i" {
  require_userns
  # No new PID namespace: the caller's /proc, bound, as bwrap does (a
  # user namespace may mount a new proc only for a PID namespace it
  # owns), what could harm the machine not writable.
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -U -r \
    "${BASE[@]}" --proc /proc -- sh -c \
    'test -d /proc/1 && echo host; stat -f -c %T /proc; '"$PROC_COVERED"
  assert_success
  assert_output $'host\nproc'
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" --unshare-user-try \
    "${BASE[@]}" --proc /proc -- cat /proc/self/comm
  assert_success
  assert_output cat
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -U -r \
    "${BASE[@]}" --mqueue /mq -- echo ran
  assert_failure 1
  assert_err -p "only a new IPC namespace's mqueue can be mounted: add -i"
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -U -r -i \
    "${BASE[@]}" --mqueue /mq -- stat -f -c %T /mq
  assert_success
  assert_output mqueue
}

@test "strace: --proc without -p is a recursive clone of /proc; sys, irq, bus covered" {
  require_root
  require_strace
  strace -f -qq -o trace -e trace=open_tree,mount_setattr,fsopen \
    unshare-run "${BASE[@]}" --proc /proc -- true
  grep -q 'open_tree(AT_FDCWD, "/proc", OPEN_TREE_CLONE|OPEN_TREE_CLOEXEC|AT_RECURSIVE)' trace \
    || fail "no recursive clone of /proc: $(cat trace)"
  ! grep -q 'fsopen("proc"' trace || fail "a new proc: $(cat trace)"
  # As bwrap: each that the caller could write, bound on itself.
  local n want=0 f
  n=$(grep -c 'open_tree([0-9]*, "", OPEN_TREE_CLONE|OPEN_TREE_CLOEXEC|AT_EMPTY_PATH|AT_RECURSIVE)' trace)
  for f in sys sysrq-trigger irq bus; do
    [[ ! -w /proc/$f ]] || want=$((want + 1))
  done
  [[ $n == "$want" ]] || fail "$n covers, not $want: $(cat trace)"
  # Read-only, recursively: the /usr of BASE, and each cover.
  n=$(grep -c 'mount_setattr(.*AT_RECURSIVE, {attr_set=MOUNT_ATTR_RDONLY|' trace)
  [[ $n == $((want + 1)) ]] \
    || fail "$n recursive read-only attributes, not $((want + 1)): $(cat trace)"
  run --separate-stderr unshare-run "${BASE[@]}" --proc /proc -- sh -c \
    "$PROC_COVERED"
  assert_success
  assert_output ''
  # With -p: a new proc, covered too.
  strace -f -qq -o trace -e trace=open_tree,fsopen \
    unshare-run "${BASE[@]}" -p --proc /proc -- true
  grep -q 'fsopen("proc"' trace || fail "no new proc: $(cat trace)"
  run --separate-stderr unshare-run "${BASE[@]}" -p --proc /proc -- sh -c \
    "$PROC_COVERED"
  assert_success
  assert_output ''
}

@test "modes as bwrap makes them: a file's mount point 0444, parents after --perms, no umask" {
  require_root
  mkdir -p out/d
  : >f
  # The mount points, seen once the sandbox is gone.
  # shellcheck disable=SC2016 # the inner shell's arguments
  unshare -m --propagation private sh -c '
    mount --bind out out &&
    umask 077 && "$1" --bind / / --bind "$2/f" "$2/out/d/file" \
      --bind "$2/out" "$2/out/d/dir" --perms 0700 --dir "$2/out/p/q" \
      --perms 0750 --dir "$2/out/g/h" --perms 0705 --dir "$2/out/o/h" \
      --dir "$2/out/n/h" true' sh "$NC_BINDIR/unshare-run" "$PWD"
  run stat -c '%a %n' out/d/file out/d/dir out/p out/p/q out/g out/o out/n \
    out/n/h
  assert_output $'444 out/d/file\n755 out/d/dir\n700 out/p\n700 out/p/q\n750 out/g\n705 out/o\n755 out/n\n755 out/n/h'
}

@test "as uid 65534 without -U: a user namespace mapping you to yourself" {
  require_userns
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" "${BASE[@]}" \
    --tmpfs /tmp -- sh -c 'id -u; touch /tmp/a && echo tmp'
  assert_success
  assert_output $'65534\ntmp'
}

@test "the namespaces in bubblewrap's spellings" {
  require_root
  local net ipc
  net=$(readlink /proc/self/ns/net)
  ipc=$(readlink /proc/self/ns/ipc)
  run unshare-run --unshare-net readlink /proc/self/ns/net
  assert_success
  [[ $output != "$net" ]] || fail "same network namespace"
  run unshare-run --unshare-all --share-net sh -c \
    'readlink /proc/self/ns/net /proc/self/ns/ipc'
  assert_success
  assert_line -n 0 "$net"
  [[ ${lines[1]} != "$ipc" ]] || fail "same IPC namespace"
  run unshare-run --unshare-uts --hostname sbx hostname
  assert_success
  assert_output sbx
}

@test "the combinations refused: --root, --wd, a shared propagation" {
  run --separate-stderr unshare-run --root / --tmpfs /t true
  assert_failure 2
  assert_err -p "--root cannot be used with the mount steps"
  run --separate-stderr unshare-run -w / --tmpfs /t true
  assert_failure 2
  assert_err -p "--wd cannot be used with the mount steps: use --chdir"
  run --separate-stderr unshare-run -m --propagation=shared --tmpfs /t true
  assert_failure 2
  assert_err -p "--propagation=shared cannot be used with the mount steps"
}

@test "--mount-proc runs before the steps, which may bind it" {
  require_root
  run --separate-stderr unshare-run -p --mount-proc --ro-bind / / -- sh -c \
    'cat /proc/1/comm'
  assert_success
  assert_output unshare-run
}

@test "the tool's own options keep their words: --hostname --bind" {
  require_root
  run unshare-run -u --hostname --bind "${BASE[@]}" -- hostname
  assert_success
  assert_output -- --bind
}

@test "--help lists the sandbox options" {
  skip_arch_independent "help text"
  run unshare-run --help
  assert_success
  local opt
  for opt in --bind --ro-bind --dev-bind --bind-try --remount-ro --tmpfs \
    --size --perms --proc --dev --mqueue --dir --symlink --file --bind-data \
    --ro-bind-data --bind-fd --ro-bind-fd --args --chmod --setenv --unsetenv --clearenv --chdir --cap-add \
    --cap-drop --seccomp --uid --gid --map-users --map-groups --map-auto \
    --info-fd --sync-fd --block-fd --unshare-user --unshare-all --share-net; do
    [[ $output == *"$opt "* || $output == *"$opt,"* || $output == *"$opt"$'\n'* ]] \
      || fail "$opt is not in --help"
  done
}

# --- --bind-fd, --ro-bind-fd ------------------------------------------------
#
# The directory the caller opened is the one bound, or nothing is: FD not
# a directory, not open, its directory removed, its path replaced or
# covered since it was opened, DST through a link that leads out of the
# new root: each refused or kept inside; FD never COMMAND's.  A test that
# mounts to attack (a mount covering the path of FD) does it in a private
# mount namespace of its own (unshare -m), on a directory of the test.

# bind_fd_dir: dir/, holding f and sub/, the directory bound.
bind_fd_dir() {
  mkdir -p dir/sub
  echo in-dir >dir/f
}

# Open DIR with O_PATH as descriptor 7, then exec the command that
# follows.
O_PATH_EXEC='import os, sys
fd = os.open(sys.argv[1], os.O_PATH | os.O_DIRECTORY)
os.dup2(fd, 7)
os.execvp(sys.argv[2], sys.argv[2:])'

@test "--bind-fd: the directory writable, seen outside; --ro-bind-fd: read-only" {
  require_root
  bind_fd_dir
  sandbox --bind-fd 3 /d -- sh -c 'cat /d/f; echo new >/d/g' 3<dir
  assert_success
  assert_output in-dir
  assert_equal "$(cat dir/g)" new
  sandbox --ro-bind-fd 3 /r -- sh -c 'cat /r/f; echo no >/r/h' 3<dir
  assert_failure
  assert_output in-dir
  assert_err -p "Read-only file system"
  assert_file_not_exists dir/h
}

@test "--ro-bind-fd: every mount under the directory read-only too" {
  require_root
  bind_fd_dir
  require_cmd unshare
  # shellcheck disable=SC2016 # expanded by the shell it starts.
  run --separate-stderr unshare -m --propagation private bash -c '
    mount -t tmpfs nc-sub dir/sub || exit 99
    "$1" "${@:2}" 3<dir' sh "$NC_BINDIR/unshare-run" "${BASE[@]}" \
    --ro-bind-fd 3 /r -- sh -c 'stat -f -c %T /r/sub; touch /r/sub/x'
  assert_failure 1
  assert_output tmpfs
  assert_err -p "Read-only file system"
}

@test "--bind-fd: an O_PATH descriptor; a directory renamed since is followed" {
  require_root
  bind_fd_dir
  require_cmd python3
  run --separate-stderr python3 -c "$O_PATH_EXEC" dir unshare-run \
    "${BASE[@]}" --ro-bind-fd 7 /d -- cat /d/f
  assert_success
  assert_output in-dir
  # Renamed after it was opened: FD's directory is bound, by its new path.
  run --separate-stderr bash -c 'exec 3<dir; mv dir moved; mkdir dir
    echo decoy >dir/f; unshare-run "$@" --ro-bind-fd 3 /d -- cat /d/f' \
    sh "${BASE[@]}"
  assert_success
  assert_output in-dir
}

@test "--bind-fd: FD not a directory, or not open: refused before anything runs" {
  require_root
  bind_fd_dir
  local fd
  for fd in '3<dir/f' '3</dev/null' '3</proc/self/ns/net'; do
    run --separate-stderr bash -c "unshare-run \"\$@\" --bind-fd 3 /d \
      -- echo ran $fd" sh "${BASE[@]}"
    assert_failure 1
    refute_output
    assert_err "unshare-run: --bind-fd 3: Not a directory"
  done
  # Not open: bwrap 0.8 binds what it holds itself under that number.
  sandbox --ro-bind-fd 7 /d -- echo ran
  assert_failure 1
  refute_output
  assert_err "unshare-run: --ro-bind-fd 7: Bad file descriptor"
  sandbox --ro-bind-fd x /d -- echo ran
  assert_failure 2
  assert_err -p "invalid --ro-bind-fd 'x'"
}

@test "--bind-fd: its directory removed, or its path replaced since: refused" {
  require_root
  bind_fd_dir
  # Removed: /proc/self/fd reads "PATH (deleted)", which an attacker made.
  run --separate-stderr bash -c 'exec 3<dir/sub; rmdir dir/sub
    mkdir "dir/sub (deleted)"; echo planted >"dir/sub (deleted)/f"
    unshare-run "$@" --bind-fd 3 /d -- cat /d/f' sh "${BASE[@]}"
  assert_failure 1
  refute_output
  assert_err "unshare-run: --bind-fd 3 '/d': the descriptor's path, which names another directory now (removed, replaced or covered since it was opened): Stale file handle"
  # Replaced by a symbolic link to another directory.
  mkdir other
  echo other >other/f
  run --separate-stderr bash -c 'exec 3<dir; mv dir gone; ln -s other dir
    mv gone/f gone/g; unshare-run "$@" --bind-fd 3 /d -- cat /d/g' \
    sh "${BASE[@]}"
  assert_success
  assert_output in-dir
}

@test "--bind-fd: its path covered by a mount since: refused" {
  require_root
  bind_fd_dir
  require_cmd unshare
  # shellcheck disable=SC2016 # expanded by the shell it starts.
  run --separate-stderr unshare -m --propagation private bash -c '
    exec 3<dir
    mount -t tmpfs nc-cover dir || exit 99
    echo planted >dir/f
    "$1" "${@:2}" -- cat /d/f' sh "$NC_BINDIR/unshare-run" "${BASE[@]}" \
    --ro-bind-fd 3 /d
  assert_failure 1
  refute_output
  assert_err -p "--ro-bind-fd 3 '/d': the descriptor's path, which names another directory now"
}

@test "--bind-fd: DST through a link that leads out lands in the new root" {
  require_root
  bind_fd_dir
  mkdir outside planted
  ln -s "/../../../../../../$PWD/outside" planted/out
  # shellcheck disable=SC2016 # expanded by the shell it starts.
  sandbox --dir "$PWD/outside" --bind "$PWD/planted" /p \
    --bind-fd 3 /p/out/d -- sh -c \
    'cat /p/out/d/f; cat "$1/outside/d/f"' sh "$PWD" 3<dir
  assert_success
  assert_output $'in-dir\nin-dir'
  # Nothing was made, nor mounted, outside the new root.
  assert_equal "$(find outside | wc -l)" 1
  run grep -c "$PWD/outside" /proc/self/mountinfo
  assert_output 0
}

@test "--bind-fd: FD not COMMAND's; used twice, both steps bind it" {
  require_root
  bind_fd_dir
  sandbox --proc /proc --bind-fd 5 /a --tmpfs /t --bind / /t/x \
    --ro-bind-fd 5 /b -- sh -c \
    '[ -e /proc/self/fd/5 ] && echo leaked; cat /a/f /b/f' 5<dir
  assert_success
  assert_output $'in-dir\nin-dir'
  # A standard descriptor stays COMMAND's, as --file's does.
  sandbox --proc /proc --ro-bind-fd 0 /a -- sh -c \
    'cat /a/f; [ -d /proc/self/fd/0/sub ] && echo kept' <dir
  assert_success
  assert_output $'in-dir\nkept'
}

@test "strace: --bind-fd reads FD's path, clones it by open_tree, attaches it; no mount(2)" {
  require_root
  bind_fd_dir
  require_strace
  strace -f -qq -s 4096 -o trace \
    -e trace=mount,open_tree,readlinkat,move_mount \
    unshare-run "${BASE[@]}" --ro-bind-fd 3 /d -- true 3<dir
  grep -q 'readlinkat(AT_FDCWD, "/proc/self/fd/3", "'"$PWD"'/dir", ' trace \
    || fail "no readlink of /proc/self/fd/3: $(cat trace)"
  # The calls after it: its clone, attached.
  run awk -v path="$PWD/dir" '
    { sub(/^[0-9]+ +/, "") }
    seen && /^open_tree/ && index($0, "\"" path "\"") == 0 { print "other" }
    seen { call = $0; sub(/\(.*/, "", call); print call }
    index($0, "readlinkat(AT_FDCWD, \"/proc/self/fd/3\"") == 1 { seen = 1 }
  ' trace
  assert_output $'open_tree\nmove_mount'
  ! grep -q 'mount(.*MS_BIND' trace || fail "a bind by mount(2)"
}

@test "as uid 65534: --bind-fd in a user namespace; a path it cannot reach fails" {
  require_userns
  bind_fd_dir
  local pub
  pub=$(mktemp -d /tmp/nc-bind-fd.XXXXXX)
  chmod 755 "$pub"
  cp -r dir "$pub/dir"
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" "${BASE[@]}" \
    --ro-bind-fd 3 /d -- sh -c 'cat /d/f; touch /d/x' 3<"$pub/dir"
  rm -rf "$pub"
  assert_failure 1
  assert_output in-dir
  assert_err -p "Read-only file system"
  # The tree is cloned by its path, which the user must be able to walk.
  chmod 700 .
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" "${BASE[@]}" \
    --ro-bind-fd 3 /d -- cat /d/f 3<dir
  assert_failure 1
  refute_output
  assert_err "unshare-run: --ro-bind-fd 3 '/d': open_tree: Permission denied"
}
