#!/bin/bash
# $RUN and the ALT options are split into words, as upstream's are
# (SC2086); the shell text given to the sandboxes expands inside (SC2016).
# shellcheck disable=SC2016,SC2086
# bwrap-replay.bash: replay, on unshare-run, the cases of bubblewrap's own
# test suite (tests/test-run.sh of bubblewrap 0.8.0, the version Debian
# installs), paraphrased: each upstream "ok" line one case, written here,
# in upstream's order.  Not part of make check: it needs root and runs
# bubblewrap's scenarios, some of which unshare-run does not implement
# (they print N/A with the option or mode they need).
#
# Usage: BWRAP=cmd/unshare-run bash tests/scripts/bwrap-replay.bash [CASE...]
#   CASE: a case's name, as printed (default: all of them).
#   KEEP=1 keeps the scratch directory (it is on a tmpfs of a private
#   mount namespace: kept means listed before it goes).
# The reference run, which must print no FAIL:
#   BWRAP=/usr/bin/bwrap bash tests/scripts/bwrap-replay.bash
#
# Each case prints one line: "PASS name", "FAIL name: why" or
# "N/A name: why"; the last line counts them.  Upstream checks of a
# message's text ("bwrap: Can't find source path") are made on the
# message's form only: the tool's name first, the path named.
# Upstream's branches for a setuid bwrap (no --cap-add, no --size) are not
# replayed: unshare-run is never setuid; nor are the checks upstream
# itself skips here (no FUSE mount, no /dev/log socket, as root no
# unreadable file).
# Everything runs in a private mount namespace (unshare -m) with its own
# tmpfs on /tmp and /var/tmp: upstream's files in /tmp and /var/tmp go
# there, never to the machine's.

set -u
SELF=$(readlink -f -- "$0")
: "${BWRAP:?set BWRAP to the sandbox under test (unshare-run, or bwrap)}"
BWRAP=$(command -v -- "$BWRAP") || { echo "bwrap-replay: no $BWRAP" >&2; exit 1; }
BWRAP=$(readlink -f -- "$BWRAP")
NAME=${BWRAP##*/}
export BWRAP SELF LC_ALL=C

if [ "$(id -u)" != 0 ]; then
	echo "bwrap-replay: run as root (the cases mount, in a private namespace)" >&2
	exit 1
fi
if [ -z "${BWRAP_REPLAY_NS:-}" ]; then
	exec env BWRAP_REPLAY_NS=1 unshare -m --propagation private "$BASH" "$SELF" "$@"
fi
mount -t tmpfs -o size=256m,mode=1777 replay-tmp /tmp || exit 1
mount -t tmpfs -o size=64m,mode=1777 replay-vartmp /var/tmp || exit 1

# What upstream's libtest.sh sets up: RUN, the read-only host arguments.
RUN="$BWRAP --bind / / --tmpfs /tmp"
RO_HOST_ARGS="--ro-bind /usr /usr --ro-bind /etc /etc --dir /var/tmp
  --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin
  --symlink usr/sbin /sbin --proc /proc --dev /dev"
[ /lib -ef /usr/lib ] || RO_HOST_ARGS="--ro-bind /usr /usr --ro-bind /etc /etc
  --ro-bind /bin /bin --ro-bind /lib /lib --ro-bind-try /lib64 /lib64
  --ro-bind /sbin /sbin --dir /var/tmp --proc /proc --dev /dev"
HELP=$("$BWRAP" --help 2>&1)

why=""
LOG=/dev/null
# bad WHY: record a failed check of the current case.
bad() { why="${why:+$why; }$*"; }
# ok DESC CMD...: CMD must succeed.  no DESC CMD...: CMD must fail.
ok() { local d=$1; shift; "$@" >>"$LOG" 2>&1 || bad "$d"; }
no() { local d=$1; shift; if "$@" >>"$LOG" 2>&1; then bad "$d"; fi; }
# has FILE REGEX: FILE has a line matching REGEX (grep -E).
has() { grep -qE -- "$2" "$1" || bad "$1 has no /$2/: $(head -c 300 "$1")"; }
hasnt() { ! grep -qE -- "$2" "$1" || bad "$1 has /$2/"; }
# mode_is PATH MODE: the octal mode of PATH (stat %a) is MODE.
mode_is() {
	local m; m=$(stat -c %a -- "$1" 2>&1)
	[ "$m" = "$2" ] || bad "mode of ${1##*/} is $m, not $2"
}
# needs OPTION...: the tool lists every OPTION in its --help; else the
# case is not applicable, and says which option it needs.
needs() {
	local opt
	for opt; do
		printf '%s\n' "$HELP" | grep -qE -- "(^|[ ,])$opt([ =,]|\$)" || {
			na "needs $opt, which $NAME does not implement"; return 1; }
	done
}
verdict() {
	if [ -z "$why" ]; then echo "PASS $CASE"; else echo "FAIL $CASE: $why"; fi
}
na() { echo "N/A $CASE: $*"; why="n/a"; }

###########################################################################
# The cases, in upstream's order.

c_help() {
	"$BWRAP" --help >help.txt 2>>"$LOG" || bad "--help failed"
	grep -qiE "^usage: ($BWRAP|$NAME) " help.txt \
		|| bad "no usage line naming $NAME: $(head -n 1 help.txt)"
}

# The six cases run with each of upstream's four ALT settings.
alt_ok() {
	local alt=$1
	if [ -n "$alt" ]; then
			needs $alt || return 1
	fi
}
c_fuse() {
	alt_ok "$1" || return
	local m
	m=$(awk -v u="user_id=$(id -u)" '$3 ~ /^fuse/ && index($4, u) { print $2; exit }' /proc/self/mounts)
	[ -n "$m" ] || { na "no FUSE mount of this user here (upstream skips it too)"; return; }
	ok "bind of a FUSE directory" $RUN $1 --proc /proc --dev /dev --bind "$m" /tmp/foo true
}
c_proc() {
	alt_ok "$1" || return
	ok "--proc /proc" $RUN $1 --proc /proc true
}
c_net_dev() {
	alt_ok "$1" || return
	ok "--unshare-net with --proc and --dev" $RUN $1 --unshare-net --proc /proc --dev /dev true
}
c_shadow() {
	alt_ok "$1" || return
	if cat /etc/shadow >/dev/null 2>&1; then
		na "/etc/shadow is readable here (root): upstream's check proves nothing"
		return
	fi
	no "read /etc/shadow through a bind" $RUN $1 --unshare-net --proc /proc \
		--bind /etc/shadow /tmp/foo cat /tmp/foo
}
c_unreadable() {
	alt_ok "$1" || return
	na "root reads every file: upstream skips it for uid 0"
}
c_symlink_dest() {
	alt_ok "$1" || return
	ok "bind over a symlink of the new root" $RUN $1 --dir /tmp/dir \
		--symlink dir /tmp/link --bind /etc /tmp/link true
}

c_devices() {
	ok "the devices of --dev" $RUN --unshare-pid --dev /dev \
		ls -al /dev/stdin /dev/stdout /dev/stderr /dev/null /dev/random \
		/dev/urandom /dev/fd /dev/core
}

c_as_pid_1() {
	needs --as-pid-1 || return
	$RUN --unshare-pid --as-pid-1 --bind / / bash -c 'echo $$' >pid.txt 2>>"$LOG" \
		|| bad "--as-pid-1 failed"
	has pid.txt '^1$'
}

c_info_json() {
	needs --info-fd --json-status-fd || return
	if $RUN --unshare-all --info-fd 42 --json-status-fd 43 -- bash -c 'exit 42' \
		42>info.json 43>status.json 2>>"$LOG"; then bad "exit 42 was success"; fi
	has info.json '"child-pid": [0-9]'
	has status.json '"child-pid": [0-9]'
	has status.json '"exit-code": 42'
}

c_ns_ids() {
	needs --info-fd --json-status-fd || return
	local data ns id
	data=$($RUN --proc /proc --unshare-all --info-fd 42 --json-status-fd 43 -- \
		bash -c 'stat -L --format "%n %i" /proc/self/ns/*' 42>info.json 43>status.json 2>>"$LOG")
	for ns in ipc mnt net pid uts; do
		id=$(printf '%s\n' "$data" | awk -v n="/proc/self/ns/$ns" '$1 == n { print $2 }')
		[ -n "$id" ] || { bad "no id of $ns"; continue; }
		has info.json "$id"
		has status.json "$id"
	done
}

c_preexec_status() {
	needs --json-status-fd || return
	na "injects a fault at bwrap's 39th prctl: a count of bwrap's own calls"
}

c_exec_status() {
	needs --json-status-fd || return
	$RUN --json-status-fd 42 / 42>status.json 2>>"$LOG" || true
	hasnt status.json '"exit-code": [0-9]'
}

# The nested sandboxes: the tool in a sandbox of its own, in a user
# namespace with every capability.
recurse() {
	"$BWRAP" --unshare-user --uid 0 --gid 0 --cap-add ALL --bind / / \
		--bind /proc /proc -- /proc/self/exe "$@"
}
c_recursive_proc() {
	needs --unshare-user --uid --gid --cap-add || return
	recurse --unshare-all --bind / / --bind /proc /proc echo hello \
		>out.txt 2>>"$LOG" || bad "nested sandbox failed"
	has out.txt hello
}
c_recursive_root() {
	needs --unshare-user --uid --gid --cap-add || return
	recurse --unshare-all $RO_HOST_ARGS findmnt >out.txt 2>>"$LOG" \
		|| bad "nested sandbox failed"
	has out.txt /usr
}
# Upstream runs these as a user: as root, a nested sandbox needs no user
# namespace and the checks would prove nothing.  As uid 65534 here.
c_disable_userns() {
	needs --unshare-user --disable-userns --assert-userns-disabled || return
	local b=$BWRAP u="setpriv --reuid=65534 --regid=65534 --clear-groups"
	ok "nested sandbox" $u "$b" --dev-bind / / -- true
	no "--assert-userns-disabled without it" $u "$b" --assert-userns-disabled \
		--dev-bind / / -- true
	ok "--disable-userns" $u "$b" --unshare-user --disable-userns --dev-bind / / -- true
	no "a sandbox inside --disable-userns" $u "$b" --unshare-user --disable-userns \
		--dev-bind / / -- "$b" --dev-bind / / -- true
	ok "raising max_user_namespaces inside" $u "$b" --unshare-user --disable-userns \
		--dev-bind / / -- sh -c "echo 100 > /proc/sys/user/max_user_namespaces || true; ! $b --dev-bind / / -- true"
	ok "--assert-userns-disabled inside" $u "$b" --unshare-user --disable-userns \
		--dev-bind / / -- sh -c "! $b --dev-bind / / --assert-userns-disabled -- true"
}

c_error_prefix() {
	if $RUN --unshare-pid --bind /source-enoent /dest true 2>err.txt; then
		bad "a missing source was bound"
	fi
	has err.txt "^$NAME: .*source-enoent"
}

c_caps_root() {
	command -v capsh >/dev/null || { na "no capsh"; return; }
	needs --as-pid-1 --cap-drop || return
	local opt
	capsh --print | sed -e 's/no-new-privs=0/no-new-privs=1/' >caps.expected
	for opt in "" --as-pid-1; do
			$RUN $opt --unshare-pid capsh --print >caps.test 2>>"$LOG" \
			|| bad "capsh failed ($opt)"
		diff caps.expected caps.test >>"$LOG" 2>&1 \
			|| bad "capsh --print differs ${opt:-without --as-pid-1}: $(diff caps.expected caps.test | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
	done
	$RUN --cap-drop ALL --unshare-pid capsh --print >caps.test 2>>"$LOG"
	has caps.test '^Current: =$'
	$RUN --cap-drop CAP_KILL --cap-drop CAP_FOWNER --unshare-pid capsh --print \
		>caps.test 2>>"$LOG"
	if grep -q 'Current: =.*+eip$' caps.test; then
		hasnt caps.test '^Current: =.*cap_kill.*\+eip$'
		hasnt caps.test '^Current: =.*cap_fowner.*\+eip$'
		has caps.test '^Current: =.*cap_net_bind_service.*\+eip$'
	else
		has caps.test '^Current: =eip.*cap_kill.*-eip$'
		has caps.test '^Current: =eip.*cap_fowner.*-eip$'
		hasnt caps.test '^Current: =.*cap_net_bind_service.*-eip$'
	fi
}

# locked FILE [wait]: whether another process holds a write lock on FILE
# (fcntl); with wait, wait until none does, 10 s at most.
locked() {
	python3 - "$@" <<'PY'
import fcntl, struct, sys, time
lock = struct.pack("hhqqhh", fcntl.F_WRLCK, 0, 0, 0, 0, 0)
with open(sys.argv[1], "a") as f:
    for _ in range(200 if sys.argv[2:] == ["wait"] else 1):
        try:
            fcntl.fcntl(f.fileno(), fcntl.F_SETLK, lock)
            sys.exit(1)
        except OSError:
            time.sleep(0.05)
sys.exit(0)
PY
}
c_die_with_parent() {
	needs --die-with-parent --lock-file || return
	local opts="--die-with-parent $1" sh i
	touch lock
	# The lock is taken by the sandbox; the loop retries when the check
	# below held it at that moment.
	bash -c "while :; do $RUN $opts --lock-file $PWD/lock sleep 1h; done" \
		>>"$LOG" 2>&1 &
	sh=$!
	for ((i = 0; i < 100; i++)); do locked lock && break; sleep 0.1; done
	locked lock || { bad "the sandbox took no lock"; kill -KILL "$sh"; return; }
	kill -KILL "$sh"
	locked lock wait && bad "the sandbox outlived its parent (lock held)"
}

c_args_fd() {
	needs --args || return
	printf -- '--dir\0/tmp/hello/world\0' >a1
	printf -- '--dir\0/tmp/hello/world2\0' >a2
	printf -- '--dir\0/tmp/hello/world3\0' >a3
	ok "--args" $RUN --args 3 --args 4 --args 5 /bin/sh -c \
		'test -d /tmp/hello/world && test -d /tmp/hello/world2 && test -d /tmp/hello/world3' \
		3<a1 4<a2 5<a3
}

# Of a later upstream test-run.sh than 0.8.0's: --bind-fd.
c_bind_fd() {
	needs --bind-fd || return
	echo foobar >file-data
	$RUN --proc /proc --dev /dev --bind / / --bind-fd 100 /tmp \
		cat /tmp/file-data 100<. >stdout 2>>"$LOG" || bad "--bind-fd failed"
	has stdout foobar
}

c_dashdash() {
	$RUN -- sh -c "echo hello" >out.txt 2>>"$LOG" || bad "-- sh failed"
	has out.txt hello
}
c_inadvisable_name() {
	mkdir bin
	printf '#!/bin/sh\necho hello\n' >bin/--inadvisable-executable-name--
	chmod +x bin/--inadvisable-executable-name--
	PATH="$PWD/bin:$PATH" $RUN -- --inadvisable-executable-name-- >out.txt 2>>"$LOG" \
		|| bad "-- --name failed"
	has out.txt hello
}
c_defanged() {
	needs --dev-bind || return
	no "an option after -- was taken" $RUN -- --dev-bind /dev /dev sh -c 'echo should not have run'
}

# Upstream's temporary file in /tmp: on this namespace's tmpfs.
c_root_tmp() {
	local f; f=$(mktemp /tmp/bwrap-test-XXXXXXXX); echo hello >"$f"
	"$BWRAP" --bind / / cat "$f" >out.txt 2>>"$LOG" || bad "cat failed"
	has out.txt hello
}
c_tmp_tmp() {
	local f; f=$(mktemp /tmp/bwrap-test-XXXXXXXX); echo hello >"$f"
	"$BWRAP" --bind / / --bind /tmp /tmp cat "$f" >out.txt 2>>"$LOG" || bad "cat failed"
	has out.txt hello
}
c_tmp_mnt() {
	[ -d /mnt ] || { na "no /mnt (upstream skips it too)"; return; }
	local f; f=$(mktemp /tmp/bwrap-test-XXXXXXXX); echo hello >"$f"
	"$BWRAP" --bind / / --bind /tmp /mnt cat "/mnt/${f#/tmp/}" >out.txt 2>>"$LOG" \
		|| bad "cat failed"
	has out.txt hello
}

c_onto_tmp() {
	no "/tmp/oldroot visible" $RUN test -d /tmp/oldroot
	no "/tmp/newroot visible" $RUN test -d /tmp/newroot
	echo hello >"input.$$"
	"$BWRAP" --bind / / --bind "$PWD" /tmp cat "/tmp/input.$$" >out.txt 2>>"$LOG" \
		|| bad "cat failed"
	has out.txt hello
	no "/tmp/oldroot visible (2)" "$BWRAP" --bind / / --bind "$PWD" /tmp test -d /tmp/oldroot
	no "/tmp/newroot visible (2)" "$BWRAP" --bind / / --bind "$PWD" /tmp test -d /tmp/newroot
}
c_inside_tmp() {
	echo hello >"input.$$"
	$RUN --bind "$PWD" /tmp/here cat "/tmp/here/input.$$" >out.txt 2>>"$LOG" \
		|| bad "cat failed"
	has out.txt hello
	no "/tmp/oldroot visible" $RUN --bind "$PWD" /tmp/here test -d /tmp/oldroot
	no "/tmp/newroot visible" $RUN --bind "$PWD" /tmp/here test -d /tmp/newroot
}

c_mountpoint_modes() {
	local here; here=$(pwd -P)
	touch some-file; mkdir some-dir
	ok "binds" $RUN --bind "$here/some-dir" "$here/new-dir-mountpoint" \
		--bind "$here/some-file" "$here/new-file-mountpoint" true
	mode_is new-dir-mountpoint 755
	mode_is new-file-mountpoint 444
}

c_socket() {
	[ -S /dev/log ] || { na "/dev/log is not a socket here (upstream skips it too)"; return; }
	local s; s=$(realpath /dev/log)
	ok "bind of a socket" $RUN --bind / / --bind "$s" "$s" true
}

c_dir_modes() {
	local here; here=$(pwd -P)
	mkdir d710 d754; chmod 0710 d710; chmod 0754 d754
	ok "--dir" $RUN --perms 1741 --dir "$here/set" --dir "$here/d710" \
		--perms 0741 --dir "$here/d754" --dir "$here/chm" \
		--chmod 1755 "$here/chm" --dir "$here/default" true
	mode_is default 755
	mode_is set 1741
	mode_is d710 710
	mode_is d754 754
	mode_is chm 1755
}

c_parent_modes() {
	local here m want; here=$(pwd -P)
	local -a args=(--dir "$here/parent/dir")
	for m in 1777 0755 0644 0750 0710 0720 0640 0700 0600 0705 0604 0000; do
		args+=(--perms "$m" --dir "$here/parent-of-$m/dir")
	done
	ok "--dir with parents" $RUN "${args[@]}" true
	mode_is parent 755
	for m in 1777:755 0755:755 0644:755 0750:750 0710:750 0720:750 \
		0640:750 0700:700 0600:700 0705:705 0604:705 0000:700; do
		want=${m#*:}
		mode_is "parent-of-${m%:*}" "$want"
	done
	chmod -R 0700 parent* 2>/dev/null
}

c_tmpfs_modes() {
	local here; here=$(pwd -P)
	$RUN --perms 01777 --tmpfs "$here" stat -c %a "$here" >m.txt 2>>"$LOG"
	has m.txt '^1777$'
	$RUN --tmpfs "$here" stat -c %a "$here" >m.txt 2>>"$LOG"
	has m.txt '^755$'
}

c_tmpfs_size() {
	local here; here=$(pwd -P)
	local -a pre
	for pre in "--size 1048576" "--size 1048576 --perms 01777" \
		"--perms 01777 --size 1048576"; do
			$RUN $pre --tmpfs "$here" df --output=size --block-size=1K "$here" \
			>s.txt 2>>"$LOG"
		has s.txt '^ *1024$'
		case $pre in *perms*)
					$RUN $pre --tmpfs "$here" stat -c %a "$here" >m.txt 2>>"$LOG"
			has m.txt '^1777$' ;;
		esac
	done
}

c_file_modes() {
	local item want
	for item in --file:666 --bind-data:600 --ro-bind-data:600; do
		want=${item#*:}
		$RUN "${item%:*}" 0 /tmp/file stat -c %a /tmp/file </dev/null \
			>m.txt 2>>"$LOG"
		has m.txt "^$want\$"
		$RUN --perms 0640 "${item%:*}" 0 /tmp/file stat -c %a /tmp/file \
			</dev/null >m.txt 2>>"$LOG"
		has m.txt '^640$'
	done
}

c_bogus_size() {
	needs --size --tmpfs || return
	local s
	for s in 0 123bogus '' -12345678 ' -12345678' 18446744073709551616 \
		9223372036854775809; do
		no "--size '$s' accepted" $RUN --size "$s" --tmpfs /tmp/a true
	done
}

c_once() {
	needs --size --perms --tmpfs || return
	no "--perms twice accepted" $RUN --perms 0640 --perms 0640 --tmpfs /tmp/a true
	no "--size twice accepted" $RUN --size 1048576 --size 1048576 --tmpfs /tmp/a true
}

c_environment() {
	FOO='' BAR=baz $RUN --setenv FOO bar sh -c 'echo "$FOO$BAR"' >out.txt 2>>"$LOG"
	has out.txt '^barbaz$'
	FOO=wrong BAR=baz $RUN --setenv FOO bar sh -c 'echo "$FOO$BAR"' >out.txt 2>>"$LOG"
	has out.txt '^barbaz$'
	FOO=wrong BAR=baz $RUN --unsetenv FOO sh -c 'printf "%s%s" "$FOO" "$BAR"' \
		>out.txt 2>>"$LOG"
	[ "$(cat out.txt)" = baz ] || bad "--unsetenv: got '$(cat out.txt)'"
	FOO=wrong BAR=wrong $RUN --clearenv /usr/bin/env >out.txt 2>>"$LOG"
	[ "$(cat out.txt)" = "PWD=$(pwd -P)" ] \
		|| bad "--clearenv: env is '$(tr '\n' ' ' <out.txt)', not PWD=$(pwd -P)"
}

###########################################################################

CASES=(help)
for alt in "" "--unshare-user-try" "--unshare-pid" "--unshare-user-try --unshare-pid"; do
	tag=${alt:-plain}; tag=${tag// /+}; tag=${tag//--/}
	for c in fuse proc net_dev shadow unreadable symlink_dest; do
		CASES+=("$c@$tag")
	done
done
CASES+=(devices as_pid_1 info_json ns_ids preexec_status exec_status
	recursive_proc recursive_root disable_userns error_prefix caps_root
	die_with_parent@plain die_with_parent@unshare-pid args_fd bind_fd dashdash
	inadvisable_name defanged root_tmp tmp_tmp tmp_mnt onto_tmp inside_tmp
	mountpoint_modes socket dir_modes parent_modes tmpfs_modes tmpfs_size
	file_modes bogus_size once environment)

# alt_of TAG: the ALT options a case's tag names.
alt_of() {
	case $1 in
		plain) echo "" ;;
		*) local a=${1//+/ --}; echo "--$a" ;;
	esac
}

pass=0 fail=0 nas=0
scratch=$(mktemp -d /var/tmp/tap-test.XXXXXX)
for CASE in "${CASES[@]}"; do
	if [ $# -gt 0 ]; then
		wanted=
		for w; do [ "$w" = "$CASE" ] && wanted=1; done
		[ -n "$wanted" ] || continue
	fi
	fn=c_${CASE%%@*}
	arg=
	[ "$fn" = "c_$CASE" ] || arg=$(alt_of "${CASE#*@}")
	dir=$scratch/${CASE//[@+]/_}
	mkdir -p "$dir"
	LOG=$dir/log
	# A case that is not applicable prints its N/A line and nothing else.
	line=$(cd "$dir" || exit; why=""; "$fn" "$arg"
		if [ "$why" != n/a ]; then verdict; fi)
	echo "$line"
	case $line in
		PASS*) pass=$((pass + 1)) ;;
		FAIL*) fail=$((fail + 1)) ;;
		*) nas=$((nas + 1)) ;;
	esac
done
[ -z "${KEEP:-}" ] || find "$scratch" -name log -size +0 -print
echo "# $NAME: $pass PASS, $fail FAIL, $nas N/A"
[ "$fail" = 0 ]
