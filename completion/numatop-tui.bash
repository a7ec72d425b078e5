# bash completion for numatop-tui                          -*- shell-script -*-
#
# Options, formats, column names and what an action option takes (PID,
# NODE) come from the program's own --help, so they follow the program
# and its action table; node and memory tier ids from /sys (or
# NUMATOP_TUI_ROOT / --root on the line); PIDs from /proc.
#
# Every name read from a tree or the machine is data: a --root tree may be
# someone's capture, and its directory names anything ("node8$(cmd)").
# No such name reaches compgen -W (which expands $(...), backticks and
# variables in its words) or an unquoted expansion (which globs): only
# names in the form the option takes are kept (node ids are digits), and
# candidates are matched with [[ ]] and added to COMPREPLY one by one.

_numatop_tui_help()
{
	"${1:-numatop-tui}" --help 2>/dev/null
}

# The root of the machine the command line reads.
_numatop_tui_root()
{
	local root=${NUMATOP_TUI_ROOT:-/} i
	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		case ${COMP_WORDS[i]} in
		-r | --root) root=${COMP_WORDS[i + 1]} ;;
		--root=*) root=${COMP_WORDS[i]#--root=} ;;
		esac
	done
	printf '%s\n' "${root%/}"
}

# _numatop_tui_id NAME: NAME is an id as the program writes it (0, or
# digits with no leading 0, at most 2147483647). Checked as a pattern
# first: the arithmetic sees digits only.
_numatop_tui_id()
{
	[[ $1 == 0 || ($1 == [1-9]* && $1 != *[!0-9]* && ${#1} -le 10) ]] &&
		((10#$1 <= 2147483647))
}

# Its node ids.
_numatop_tui_nodes()
{
	local d id
	for d in "$(_numatop_tui_root)"/sys/devices/system/node/node[0-9]*; do
		id=${d##*/node}
		[[ -d $d ]] && _numatop_tui_id "$id" && printf '%s\n' "$id"
	done
}

# Its memory tier ids.
_numatop_tui_tiers()
{
	local d id
	for d in "$(_numatop_tui_root)"/sys/devices/virtual/memory_tiering/memory_tier[0-9]*; do
		id=${d##*/memory_tier}
		[[ -d $d ]] && _numatop_tui_id "$id" && printf '%s\n' "$id"
	done
}

_numatop_tui_columns()
{
	local n id
	while IFS= read -r n; do
		if [[ $n == "N<id>" ]]; then
			printf 'N\n'
			while IFS= read -r id; do printf 'N%s\n' "$id"; done < <(_numatop_tui_nodes)
		elif [[ $n == "T<id>" ]]; then
			printf 'T\n'
			while IFS= read -r id; do printf 'T%s\n' "$id"; done < <(_numatop_tui_tiers)
		else
			printf '%s\n' "$n"
		fi
	done < <(_numatop_tui_help "$1" | sed -n '/^Columns/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
}

# _numatop_tui_arg PROG OPT: the argument OPT takes as --help names it
# ("--migrate PID": PID, "--to NODE": NODE; nothing for a switch). The
# action options come from the program's action table through --help, so
# a new one taking a PID or a NODE completes with nothing added here.
_numatop_tui_arg()
{
	_numatop_tui_help "$1" | awk -v o="$2" '
		{ s = $0; sub(/^ +/, "", s); n = length($0) - length(s) }
		n < 1 || n > 7 || substr(s, 1, 1) != "-" { next }
		{
			for (i = 1; i <= NF; i++) {
				f = $i; sub(/,$/, "", f)
				if (f !~ /^-/) break
				if (f != o) continue
				for (j = i + 1; j <= NF && $j ~ /^-/; j++) ;
				if (j <= NF && $j !~ /[a-z]/) print $j
				exit
			}
		}'
}

_numatop_tui_pids()
{
	local p
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[[ $p != *[!0-9]* ]] && printf '%s\n' "$p"
	done
}

# The words of $1 (one a line) that start with $2, ignoring case (column
# names are case-insensitive: -s c offers CPU%, CGROUP, COMMAND).
_numatop_tui_ci()
{
	local w cur=${2,,}
	while IFS= read -r w; do
		[[ -n $w && ${w,,} == "$cur"* ]] && printf '%s\n' "$w"
	done <<<"$1"
}

# _numatop_tui_add CUR: each line of the input that starts with CUR goes
# into COMPREPLY as it is (never expanded, split or globbed).
_numatop_tui_add()
{
	local w
	while IFS= read -r w; do
		[[ -n $w && $w == "$1"* ]] && COMPREPLY+=("$w")
	done
}

# Complete the last element of a comma-separated list.
_numatop_tui_list()
{
	local cur=$1 words=$2 prefix="" w
	[[ $cur == *,* ]] && prefix=${cur%,*},
	COMPREPLY=()
	while IFS= read -r w; do
		COMPREPLY+=("$prefix$w")
	done < <(_numatop_tui_ci "$words" "${cur##*,}")
	type compopt &>/dev/null && compopt -o nospace 2>/dev/null
}

_numatop_tui()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n =,:% || return
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
	fi
	local prog=${COMP_WORDS[0]}
	COMPREPLY=()
	case $prev in
	-s | --sort)
		_numatop_tui_add "" < <(_numatop_tui_ci "$(_numatop_tui_columns "$prog")" "$cur")
		return ;;
	-o | --columns)
		_numatop_tui_list "$cur" "$(_numatop_tui_columns "$prog")"
		return ;;
	-p | --pid)
		_numatop_tui_list "$cur" "$(_numatop_tui_pids)"
		return ;;
	-r | --root | --capture)
		if declare -F _filedir >/dev/null; then _filedir -d; else _numatop_tui_add "" < <(compgen -d -- "$cur"); fi
		return ;;
	-w | --record | --replay)
		# a file, or a directory of daily files
		if declare -F _filedir >/dev/null; then _filedir; else _numatop_tui_add "" < <(compgen -f -- "$cur"); fi
		return ;;
	-u | --user)
		_numatop_tui_add "" < <(compgen -u -- "$cur")
		return ;;
	--format)
		_numatop_tui_add "$cur" < <(_numatop_tui_help "$prog" | sed -n '/^Formats/,/^$/p' |
			awk 'NR > 1 && NF { print $1 }')
		return ;;
	--metrics-by)
		_numatop_tui_add "$cur" <<<$'pid\ncomm'
		return ;;
	--capture-processes)
		_numatop_tui_add "$cur" <<<$'all\nnone\ntop:'
		return ;;
	-d | --delay | -n | --iterations | --budget | --metrics-top | --metrics-min-remote | \
	--keep-days | --begin | --end)
		return ;;
	esac
	# An option's argument by the name --help gives it: a PID (--migrate,
	# --rebind), a NODE (--to).
	case $([[ $prev == -* ]] && _numatop_tui_arg "$prog" "$prev") in
	PID)
		_numatop_tui_add "$cur" < <(_numatop_tui_pids)
		return ;;
	NODE)
		_numatop_tui_add "$cur" < <(_numatop_tui_nodes)
		return ;;
	esac
	# Options start within the first 8 columns of --help; the lines
	# indented further continue a text (and may start with --format).
	if [[ $cur == -* ]]; then
		_numatop_tui_add "$cur" < <(_numatop_tui_help "$prog" |
			grep -oE '^ {1,7}(-[A-Za-z], )?--[a-z-]+|^ {1,7}-[A-Za-z]' | tr -d ' ,' |
			sed -E 's/^(-[A-Za-z])(--)/\1\n\2/')
	fi
} &&
	complete -F _numatop_tui numatop-tui
