# fish completion for pausecam (installed by `make install`).
set -l commands shell run check devices export ctl help
complete -c pausecam -f
complete -c pausecam -n "not __fish_seen_subcommand_from $commands" -a shell -d 'interactive shell on a rig'
complete -c pausecam -n "not __fish_seen_subcommand_from $commands" -a run -d 'run a scene script unattended'
complete -c pausecam -n "not __fish_seen_subcommand_from $commands" -a check -d 'validate rig files'
complete -c pausecam -n "not __fish_seen_subcommand_from $commands" -a devices -d 'list cameras'
complete -c pausecam -n "not __fish_seen_subcommand_from $commands" -a export -d 'scenes and markers for editors'
complete -c pausecam -n "not __fish_seen_subcommand_from $commands" -a ctl -d 'command a running pausecam'
complete -c pausecam -n "not __fish_seen_subcommand_from $commands" -a help -d 'help on a command'
complete -c pausecam -n "__fish_seen_subcommand_from run shell check" -F -a '(__fish_complete_suffix .yaml)'
complete -c pausecam -n "__fish_seen_subcommand_from run" -l script -r -d 'scene script'
complete -c pausecam -n "__fish_seen_subcommand_from run" -l keep-going -d 'do not stop at a failed step'
complete -c pausecam -n "__fish_seen_subcommand_from run shell" -l output -r -a '(__fish_complete_directories)'
complete -c pausecam -n "__fish_seen_subcommand_from run shell" -l clock -x -a 'real simulated' -d 'clock'
complete -c pausecam -n "__fish_seen_subcommand_from run shell" -l quiet -d 'print only errors'
complete -c pausecam -n "__fish_seen_subcommand_from shell" -l on-error -x -a 'stop continue'
complete -c pausecam -n "__fish_seen_subcommand_from devices" -l json -d 'JSON output'
complete -c pausecam -n "__fish_seen_subcommand_from devices ctl" -l rig -r -a '(__fish_complete_suffix .yaml)'
complete -c pausecam -n "__fish_seen_subcommand_from export" -F -a '(__fish_complete_suffix .json)'
complete -c pausecam -n "__fish_seen_subcommand_from export" -l format -x -a 'edl fcpxml csv ffmetadata youtube all'
complete -c pausecam -n "__fish_seen_subcommand_from export" -l output -r -F -d 'output file'
complete -c pausecam -n "__fish_seen_subcommand_from export" -l start-timecode -x -d 'timecode of the first frame'
complete -c pausecam -n "__fish_seen_subcommand_from ctl" -l socket -r -F -d 'socket path'
set -l verbs record pause resume stop toggle chapter mark lens zoom exposure focus follow voice status watch
complete -c pausecam -n "__fish_seen_subcommand_from ctl" -a "$verbs"
complete -c pausecam -n "__fish_seen_subcommand_from help" -a 'run shell check devices export ctl'
