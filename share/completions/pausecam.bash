# bash completion for pausecam (installed by `make install`).

# The rig file named on the command line of `run`/`shell` (the first word that is not an option or an option's
# value), with a leading ~ expanded.
_pausecam_rig() {
    local i word
    for ((i = 2; i < cword; i++)); do
        word=${words[i]}
        case "$word" in
            --script|--output|--clock|--on-error|--socket|--web) ((i++)) ;;
            -*) ;;
            *) printf '%s\n' "${word/#\~/$HOME}"; return ;;
        esac
    done
}

# `ctl`'s own options as typed (--rig, --socket, --timeout) and the index of its command word.
_pausecam_ctl_parse() {
    ctl_options=()
    ctl_verb=0
    local i=2
    while ((i < ${#words[@]})); do
        case "${words[i]}" in
            --rig|--socket|--timeout)
                ctl_options+=("${words[i]}" "${words[i+1]}"); ((i += 2)) ;;
            --rig=*|--socket=*|--timeout=*) ctl_options+=("${words[i]}"); ((i++)) ;;
            -*) ((i++)) ;;
            *) ctl_verb=$i; return ;;
        esac
    done
    ctl_verb=$i
}

# The running rig's lens names, from `pausecam ctl status --json` (each "name" of its "lenses"), asked with a short timeout so a
# stopped PauseCam cannot hang the prompt (a --timeout typed on the line wins).
_pausecam_running_lenses() {
    "${words[0]}" ctl --timeout 2 "${ctl_options[@]}" status --json 2>/dev/null |
        sed -n 's/.*"lenses":\[\([^]]*\)\].*/\1/p' | grep -o '"name":"[^"]*"' | sed 's/^"name":"//; s/"$//'
}

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
        --script)
            local rig
            rig=$(_pausecam_rig)
            [ -n "$rig" ] && COMPREPLY=($(compgen -W "$("${words[0]}" check --list-scripts "$rig" 2>/dev/null)" -- "$cur"))
            return ;;
        --start-timecode|--socket|--timeout) return ;;
    esac
    local options files
    case "${words[1]}" in
        run) options="--script --output --clock --keep-going --quiet --help"; files='!*.@(yaml|yml)' ;;
        shell) options="--output --clock --on-error --quiet --help"; files='!*.@(yaml|yml)' ;;
        check) options="--help"; files='!*.@(yaml|yml)' ;;
        devices) options="--json --rig --help" ;;
        export) options="--format --output --start-timecode --help"; files='!*.json' ;;
        ctl)
            options="--rig --socket --timeout --help"
            local ctl_options ctl_verb
            _pausecam_ctl_parse
            if [[ "$cur" != -* ]] && ((cword == ctl_verb)); then
                local verbs="record pause resume stop toggle chapter retake mark lens zoom exposure focus follow voice status watch"
                COMPREPLY=($(compgen -W "$verbs" -- "$cur"))
                return
            fi
            if ((cword == ctl_verb + 1)) && [ "${words[ctl_verb]}" = lens ]; then
                COMPREPLY=($(compgen -W "$(_pausecam_running_lenses) next" -- "$cur"))
                return
            fi
            ((cword > ctl_verb)) && return ;;
        help) COMPREPLY=($(compgen -W "run shell check devices export ctl" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [ -n "$files" ]; then
        COMPREPLY=($(compgen -f -X "$files" -- "$cur") $(compgen -d -- "$cur"))
    fi
}
complete -F _pausecam pausecam
