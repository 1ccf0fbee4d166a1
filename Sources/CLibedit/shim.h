#ifndef WB_CLIBEDIT_SHIM_H
#define WB_CLIBEDIT_SHIM_H

/* libedit's readline-compatible interface. wb reaches it through the WBLineEditor
   C target, which keeps libedit's globals and signal handling out of Swift. */
#include <stdio.h>
#include <editline/readline.h>

#endif
