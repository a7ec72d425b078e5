#!/bin/sh
# The Debian package: make deb builds build/numatop-tui_VERSION_ARCH.deb
# (one build, about a minute) with the program, its man page, the bash
# completion, the docs and the recorder's systemd unit; its Depends come
# from the shared libraries; the program unpacked from it runs; its
# maintainer scripts (run with stand-ins for deb-systemd-helper, systemctl
# and deb-systemd-invoke) neither enable nor start the unit, restart it on
# upgrade only if it runs and stop it on removal; lintian finds no error;
# the build leaves nothing outside build/ (in the tree or beside it).
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
case ${BUILD:-build} in *asan*)
	# The package is built from a copy of the tree with its own flags:
	# under make asan it is the very build make test checks.
	echo "SKIP deb: under make asan (the package build is the one make test checks)"
	exit 0 ;;
esac
if ! command -v dpkg-buildpackage >/dev/null 2>&1; then
	echo "SKIP deb: dpkg-buildpackage not installed (make deps installs debhelper)"
	exit 0
fi
need git git
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
ver=$(sed -n 's/^VERSION *:= *//p' Makefile)
arch=$(dpkg --print-architecture)
DEB=build/numatop-tui_${ver}_$arch.deb
# What is not tracked (ignored files too), outside build/; and what is
# beside the tree by our name (dpkg-buildpackage writes its results to ..).
untracked() { git status --porcelain --ignored --untracked-files=all 2>/dev/null | grep -E '^(\?\?|!!) ' | grep -Ev '^.. build/' | LC_ALL=C sort; }
untracked >"$T/before"
parent() { ls -A .. | grep '^numatop-tui' | LC_ALL=C sort; }
parent >"$T/parent-before"
# As a user calls it: not with make test's PROG and BUILD (build-asan
# under make asan) nor a parent make's flags.
timeout 900 env -u PROG -u BUILD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u LDFLAGS -u CPPFLAGS make -s deb >"$T/deb.log" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ -f "$DEB" ]; then
	ok deb_builds
else
	hint=""
	command -v dh >/dev/null 2>&1 || hint="
(no dh: apt-get install debhelper)"
	bad deb_builds "make -s deb: status $rc; $(ls build/*.deb 2>/dev/null | tr '\n' ' ')no $DEB$hint
$(tail -25 "$T/deb.log")"
fi

untracked >"$T/after"
new=$(comm -13 "$T/before" "$T/after")
[ -z "$new" ] && ok deb_tree_clean || bad deb_tree_clean "left in the tree (outside build/):
$new"
parent >"$T/parent-after"
new=$(comm -13 "$T/parent-before" "$T/parent-after")
[ -z "$new" ] && ok deb_parent_clean || bad deb_parent_clean "left beside the tree, in $(cd .. && pwd):
$new"

[ -f "$DEB" ] || { echo "SKIP deb_contents: no package"; exit 0; }
dpkg-deb -f "$DEB" Package Version Architecture >"$T/ctl"
grep -qx 'Package: numatop-tui' "$T/ctl" && grep -qx "Version: $ver" "$T/ctl" &&
	grep -qx "Architecture: $arch" "$T/ctl" && ok deb_control || bad deb_control "$(cat "$T/ctl")"
dpkg-deb -c "$DEB" | awk '{ print $6 }' >"$T/list"
miss=""
for f in ./usr/bin/numatop-tui ./usr/share/man/man1/numatop-tui.1.gz \
	./usr/share/bash-completion/completions/numatop-tui ./usr/share/doc/numatop-tui/copyright; do
	grep -qxF "$f" "$T/list" || miss="$miss $f"
done
grep -q '^\./usr/share/doc/numatop-tui/README' "$T/list" || miss="$miss ./usr/share/doc/numatop-tui/README*"
# The pages of docs/ beside it (dh_compress may have compressed them).
for d in HACKING.md $(ls docs/*.md); do
	grep -q "^\./usr/share/doc/numatop-tui/$d" "$T/list" || miss="$miss ./usr/share/doc/numatop-tui/$d*"
done
# The JSON Schema as it is (not gzipped: a validator opens it).
grep -qxF ./usr/share/doc/numatop-tui/docs/numatop-tui.schema.json "$T/list" ||
	miss="$miss ./usr/share/doc/numatop-tui/docs/numatop-tui.schema.json"
# The unit where the distribution's dh_installsystemd takes it (Debian 12:
# /lib/systemd/system).
UNITPATH=$(grep -xE '\./(usr/)?lib/systemd/system/numatop-tui-record\.service' "$T/list")
[ -n "$UNITPATH" ] || miss="$miss ./lib/systemd/system/numatop-tui-record.service"
[ -z "$miss" ] && ok deb_contents || bad deb_contents "missing:$miss
$(cat "$T/list")"
dep=$(dpkg-deb -f "$DEB" Depends)
miss=""
echo "$dep" | grep -Eq 'libncursesw6|libtinfo6' || miss="$miss libncursesw6/libtinfo6"
for p in libnuma1 libproc2-0 libjson-c5; do echo "$dep" | grep -q "$p" || miss="$miss $p"; done
[ -z "$miss" ] && ok deb_depends || bad deb_depends "Depends: $dep; missing:$miss"
dpkg -x "$DEB" "$T/x"
v=$("$T/x/usr/bin/numatop-tui" -V 2>&1)
[ "$v" = "numatop-tui $ver" ] && ok deb_binary_version || bad deb_binary_version "-V: $v"
out=$("$T/x/usr/bin/numatop-tui" --root tests/trees/opteron4 -b -n 1 2>&1)
echo "$out" | grep -Eq '^ +PID USER' && echo "$out" | grep -Eq '^ +1000 ' && ok deb_binary_runs ||
	bad deb_binary_runs "$(echo "$out" | head -20)"
cmp -s "$T/x/usr/share/bash-completion/completions/numatop-tui" completion/numatop-tui.bash &&
	ok deb_completion_file || bad deb_completion_file "not completion/numatop-tui.bash"

# --- the recorder's unit and the maintainer scripts -------------------------
e=$([ -n "$UNITPATH" ] && grep '^ExecStart=' "$T/x/$UNITPATH")
[ "$e" = "ExecStart=/usr/bin/numatop-tui -w /var/log/numatop-tui/ -d 10 --keep-days 28" ] &&
	ok deb_unit_execstart || bad deb_unit_execstart "${UNITPATH:-no unit}: $e"
dpkg-deb -e "$DEB" "$T/ctl.d"
# Stand-ins that log their calls. deb-systemd-helper answers as on a fresh
# install (STATE=fresh: the unit is not debian-installed, was-enabled
# answers yes as it does for a unit it never saw) or on an upgrade where the
# administrator did not enable it (STATE=upgrade). /run/systemd/system in
# the scripts becomes $T/run-systemd: systemd runs.
mkdir -p "$T/stub" "$T/run-systemd" "$T/scripts"
for c in deb-systemd-helper deb-systemd-invoke systemctl; do
	cat >"$T/stub/$c" <<EOF
#!/bin/sh
echo "$c \$*" >>"$T/calls"
case "$c \$*" in
"deb-systemd-helper debian-installed "*) [ "\$STATE" = upgrade ] ;;
"deb-systemd-helper --quiet was-enabled "* | "deb-systemd-helper was-enabled "*) [ "\$STATE" = fresh ] ;;
esac
EOF
	chmod +x "$T/stub/$c"
done
for f in preinst postinst prerm postrm; do
	[ -f "$T/ctl.d/$f" ] && sed "s|/run/systemd/system|$T/run-systemd|g" "$T/ctl.d/$f" >"$T/scripts/$f"
done
# run STATE SCRIPT ARGS...: the calls SCRIPT made (its status last).
run() {
	: >"$T/calls"
	st=$1 f=$2; shift 2
	if [ -f "$T/scripts/$f" ]; then
		env -u DPKG_ROOT STATE=$st PATH="$T/stub:$PATH" sh "$T/scripts/$f" "$@" >/dev/null 2>&1
		echo "status $?" >>"$T/calls"
	fi
	cat "$T/calls"
}
# The calls that enable or start a unit (a restart counts as a start).
starts() { grep -E ' (enable|start|restart|reload-or-restart)( |$)|--now'; }
c=$(run fresh preinst install; run fresh postinst configure)
s=$(printf '%s\n' "$c" | starts)
[ -z "$s" ] && ! printf '%s\n' "$c" | grep -q 'status [1-9]' && ok deb_unit_not_enabled ||
	bad deb_unit_not_enabled "on install: $(printf '%s\n' "$c" | tr '\n' ';')"
c=$(run upgrade preinst upgrade 0.0.9; run upgrade postinst configure 0.0.9)
s=$(printf '%s\n' "$c" | starts)
printf '%s\n' "$c" | grep -qx 'deb-systemd-invoke try-restart numatop-tui-record.service' && [ -z "$s" ] &&
	! printf '%s\n' "$c" | grep -q 'status [1-9]' && ok deb_unit_upgrade_try_restart ||
	bad deb_unit_upgrade_try_restart "on upgrade (not enabled): $(printf '%s\n' "$c" | tr '\n' ';')"
c=$(run upgrade prerm remove)
printf '%s\n' "$c" | grep -qx 'deb-systemd-invoke stop numatop-tui-record.service' &&
	! printf '%s\n' "$c" | grep -q 'status [1-9]' && ok deb_unit_stopped_on_remove ||
	bad deb_unit_stopped_on_remove "prerm remove: $(printf '%s\n' "$c" | tr '\n' ';')"

need lintian lintian
timeout 600 lintian "$DEB" >"$T/lint" 2>&1; rc=$?
e=$(grep '^E:' "$T/lint")
[ $rc -le 1 ] && [ -z "$e" ] && ok deb_lintian || bad deb_lintian "status $rc
${e:-$(tail -10 "$T/lint")}"
