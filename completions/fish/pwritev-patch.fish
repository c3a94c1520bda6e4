# fish completion for pwritev-patch -- newcalls
# Made by build-aux/gen-completions from 'pwritev-patch --help' and the
# value lists of completions/pwritev-patch (bash): edit those, not this.

complete -c pwritev-patch -s e -d 'allow patches past the end of FILE, which then grows'
complete -c pwritev-patch -l extend -d 'allow patches past the end of FILE, which then grows'
complete -c pwritev-patch -s n -d 'show the bytes before and after each patch'
complete -c pwritev-patch -l dry-run -d 'show the bytes before and after each patch'
complete -c pwritev-patch -l sync -d 'write with RWF_DSYNC'
complete -c pwritev-patch -l engine -x -a 'auto pwritev uring' -d 'pwritev'
complete -c pwritev-patch -l stats -d 'print the number of calls and bytes written to standard error'
complete -c pwritev-patch -l debug -d 'tell on standard error which engine wrote, why, and its calls'
complete -c pwritev-patch -s h -d 'show this help and exit'
complete -c pwritev-patch -l help -d 'show this help and exit'
complete -c pwritev-patch -l usage -d 'show a short usage message and exit'
complete -c pwritev-patch -s V -d 'show version information and exit'
complete -c pwritev-patch -l version -d 'show version information and exit'
complete -c pwritev-patch -l features -d 'show the kernel\'s system calls this tool makes, whether each works here, and what the tool does without it'
