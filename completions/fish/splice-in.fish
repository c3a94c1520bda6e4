# fish completion for splice-in -- newcalls
# Made by build-aux/gen-completions from 'splice-in --help' and the
# value lists of completions/splice-in (bash): edit those, not this.

complete -c splice-in -s o -x -d 'start reading at byte N of FILE'
complete -c splice-in -l offset -x -d 'start reading at byte N of FILE'
complete -c splice-in -s l -x -d 'copy at most N bytes'
complete -c splice-in -l length -x -d 'copy at most N bytes'
complete -c splice-in -l pipe-size -x -d 'size of the pipe used for splicing (default 1M)'
complete -c splice-in -s d -d 'print the engine used and the byte count to standard error'
complete -c splice-in -l debug -d 'print the engine used and the byte count to standard error'
complete -c splice-in -s p -d 'show the bytes copied, the rate and, where the size is known, the time left, on standard error if it is a terminal'
complete -c splice-in -l progress -d 'show the bytes copied, the rate and, where the size is known, the time left, on standard error if it is a terminal'
complete -c splice-in -s L -x -d 'copy at most RATE bytes a second'
complete -c splice-in -l rate-limit -x -d 'copy at most RATE bytes a second'
complete -c splice-in -s s -x -d 'expect SIZE bytes, for the time left of --progress'
complete -c splice-in -l size -x -d 'expect SIZE bytes, for the time left of --progress'
complete -c splice-in -s h -d 'show this help and exit'
complete -c splice-in -l help -d 'show this help and exit'
complete -c splice-in -l usage -d 'show a short usage message and exit'
complete -c splice-in -s V -d 'show version information and exit'
complete -c splice-in -l version -d 'show version information and exit'
complete -c splice-in -l features -d 'show the kernel\'s system calls this tool makes, whether each works here, and what the tool does without it'
