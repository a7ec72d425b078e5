# bash completion for numatop-tui                          -*- shell-script -*-
#
# Options, formats and column names come from the program's own --help, so
# they follow the program; node and memory tier ids from /sys (or
# NUMATOP_TUI_ROOT / --root on the line); PIDs from /proc.

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

# Its node ids.
_numatop_tui_nodes()
{
	local d
	for d in "$(_numatop_tui_root)"/sys/devices/system/node/node[0-9]*; do
		[[ -d $d ]] && printf '%s\n' "${d##*/node}"
	done
}

# Its memory tier ids.
_numatop_tui_tiers()
{
	local d
	for d in "$(_numatop_tui_root)"/sys/devices/virtual/memory_tiering/memory_tier[0-9]*; do
		[[ -d $d ]] && printf '%s\n' "${d##*/memory_tier}"
	done
}

_numatop_tui_columns()
{
	local cols n
	cols=$(_numatop_tui_help "$1" | sed -n '/^Columns/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
	for n in $cols; do
		if [[ $n == "N<id>" ]]; then
			printf 'N\n'
			_numatop_tui_nodes | sed 's/^/N/'
		elif [[ $n == "T<id>" ]]; then
			printf 'T\n'
			_numatop_tui_tiers | sed 's/^/T/'
		else
			printf '%s\n' "$n"
		fi
	done
}

_numatop_tui_pids()
{
	local p
	for p in /proc/[0-9]*; do printf '%s\n' "${p#/proc/}"; done
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

# Complete the last element of a comma-separated list.
_numatop_tui_list()
{
	local cur=$1 words=$2 prefix="" w
	[[ $cur == *,* ]] && prefix=${cur%,*},
	local IFS=$'\n'
	COMPREPLY=()
	for w in $(_numatop_tui_ci "$words" "${cur##*,}"); do
		COMPREPLY+=("$prefix$w")
	done
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
	case $prev in
	-s | --sort)
		local IFS=$'\n'
		COMPREPLY=($(_numatop_tui_ci "$(_numatop_tui_columns "$prog")" "$cur"))
		return ;;
	-o | --columns)
		_numatop_tui_list "$cur" "$(_numatop_tui_columns "$prog")"
		return ;;
	--to)
		COMPREPLY=($(compgen -W "$(_numatop_tui_nodes)" -- "$cur"))
		return ;;
	-p | --pid)
		_numatop_tui_list "$cur" "$(_numatop_tui_pids)"
		return ;;
	--migrate | --rebind)
		COMPREPLY=($(compgen -W "$(_numatop_tui_pids)" -- "$cur"))
		return ;;
	-r | --root | --capture)
		if declare -F _filedir >/dev/null; then _filedir -d; else COMPREPLY=($(compgen -d -- "$cur")); fi
		return ;;
	-w | --record | --replay)
		# a file, or a directory of daily files
		if declare -F _filedir >/dev/null; then _filedir; else COMPREPLY=($(compgen -f -- "$cur")); fi
		return ;;
	-u | --user)
		COMPREPLY=($(compgen -u -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W "$(_numatop_tui_help "$prog" | sed -n '/^Formats/,/^$/p' |
			awk 'NR > 1 && NF { print $1 }')" -- "$cur"))
		return ;;
	--metrics-by)
		COMPREPLY=($(compgen -W "pid comm" -- "$cur"))
		return ;;
	--capture-processes)
		COMPREPLY=($(compgen -W "all none top:" -- "$cur"))
		return ;;
	-d | --delay | -n | --iterations | --budget | --metrics-top | --metrics-min-remote | \
	--keep-days | --begin | --end)
		return ;;
	esac
	# Options start within the first 8 columns of --help; the lines
	# indented further continue a text (and may start with --format).
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_numatop_tui_help "$prog" |
			grep -oE '^ {1,7}(-[A-Za-z], )?--[a-z-]+|^ {1,7}-[A-Za-z]' | tr -d ' ,' |
			sed -E 's/^(-[A-Za-z])(--)/\1 \2/')" -- "$cur"))
	fi
} &&
	complete -F _numatop_tui numatop-tui
