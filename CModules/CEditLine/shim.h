// libedit (BSD editline) for the interactive prompt of `ask`: line editing and history.
#include <stdio.h>
#include <histedit.h>
#include <editline/readline.h>
