# fish completion for splice-out -- newcalls
# Made by build-aux/gen-completions from 'splice-out --help' and the
# value lists of completions/splice-out (bash): edit those, not this.

complete -c splice-out -s a -d 'append to FILE instead of truncating it'
complete -c splice-out -l append -d 'append to FILE instead of truncating it'
complete -c splice-out -s o -x -d 'start writing at byte N of FILE, truncated there first (as dd seek=N)'
complete -c splice-out -l offset -x -d 'start writing at byte N of FILE, truncated there first (as dd seek=N)'
complete -c splice-out -s l -x -d 'copy at most N bytes of standard input'
complete -c splice-out -l length -x -d 'copy at most N bytes of standard input'
complete -c splice-out -s p -x -d 'size of the pipe used for splicing (default 1M)'
complete -c splice-out -l pipe-size -x -d 'size of the pipe used for splicing (default 1M)'
complete -c splice-out -s d -d 'print the engine used and the byte count to standard error'
complete -c splice-out -l debug -d 'print the engine used and the byte count to standard error'
complete -c splice-out -s h -d 'show this help and exit'
complete -c splice-out -l help -d 'show this help and exit'
complete -c splice-out -l usage -d 'show a short usage message and exit'
complete -c splice-out -s V -d 'show version information and exit'
complete -c splice-out -l version -d 'show version information and exit'
complete -c splice-out -l features -d 'show the kernel\'s system calls this tool makes, whether each works here, and what the tool does without it'
