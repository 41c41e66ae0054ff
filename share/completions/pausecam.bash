# bash completion for pausecam (installed by `make install`).
_pausecam() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    # The rig and sidecar patterns below are extended globs.
    shopt -s extglob
    local commands="shell run check devices export ctl help --help --version"
    if [ "$cword" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        COMPREPLY+=($(compgen -f -X '!*.@(yaml|yml)' -- "$cur"))
        return
    fi
    case "$prev" in
        --output) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --clock) COMPREPLY=($(compgen -W "real simulated" -- "$cur")); return ;;
        --on-error) COMPREPLY=($(compgen -W "stop continue" -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "edl fcpxml csv ffmetadata youtube all" -- "$cur")); return ;;
        --rig) COMPREPLY=($(compgen -f -X '!*.@(yaml|yml)' -- "$cur")); return ;;
        --script|--start-timecode|--socket) return ;;
    esac
    local options files
    case "${words[1]}" in
        run) options="--script --output --clock --keep-going --quiet --help"; files='!*.@(yaml|yml)' ;;
        shell) options="--output --clock --on-error --quiet --help"; files='!*.@(yaml|yml)' ;;
        check) options="--help"; files='!*.@(yaml|yml)' ;;
        devices) options="--json --rig --help" ;;
        export) options="--format --output --start-timecode --help"; files='!*.json' ;;
        ctl)
            options="--rig --socket --help"
            if [[ "$cur" != -* ]]; then
                local verbs="record pause resume stop toggle chapter mark lens zoom exposure focus status watch"
                COMPREPLY=($(compgen -W "$verbs" -- "$cur"))
                return
            fi ;;
        help) COMPREPLY=($(compgen -W "run shell check devices export ctl" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [ -n "$files" ]; then
        COMPREPLY=($(compgen -f -X "$files" -- "$cur") $(compgen -d -- "$cur"))
    fi
}
complete -F _pausecam pausecam
