# fish completion for preadv-dump -- newcalls
# Made by build-aux/gen-completions from 'preadv-dump --help' and the
# value lists of completions/preadv-dump (bash): edit those, not this.

complete -c preadv-dump -s f -x -a 'c json raw xxd' -d 'output format: xxd (the default), raw, c, json'
complete -c preadv-dump -l format -x -a 'c json raw xxd' -d 'output format: xxd (the default), raw, c, json'
complete -c preadv-dump -s c -x -d 'N bytes per line, at most 256 (xxd: 16, c: 12)'
complete -c preadv-dump -l cols -x -d 'N bytes per line, at most 256 (xxd: 16, c: 12)'
complete -c preadv-dump -s g -x -d 'N bytes per group of hex digits'
complete -c preadv-dump -l groupsize -x -d 'N bytes per group of hex digits'
complete -c preadv-dump -l gap -x -d 'read spans at most N bytes apart by one call, the bytes between them discarded'
complete -c preadv-dump -l nowait -d 'read only what is in the page cache'
complete -c preadv-dump -l hipri -d 'ask for high-priority, polled reads (RWF_HIPRI)'
complete -c preadv-dump -l stats -d 'print the number of calls and bytes read to standard error'
complete -c preadv-dump -l engine -x -a 'auto preadv uring' -d 'read by auto'
complete -c preadv-dump -l debug -d 'say on standard error which engine read, and why'
complete -c preadv-dump -s h -d 'show this help and exit'
complete -c preadv-dump -l help -d 'show this help and exit'
complete -c preadv-dump -l usage -d 'show a short usage message and exit'
complete -c preadv-dump -s V -d 'show version information and exit'
complete -c preadv-dump -l version -d 'show version information and exit'
complete -c preadv-dump -l features -d 'show the kernel\'s system calls this tool makes, whether each works here, and what the tool does without it'
