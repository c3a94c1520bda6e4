/* cli/json.h -- text as a JSON string, for the tools that print JSON.

   A JSON document must be valid UTF-8, and a file name or a command
   line need not be: json_string writes each byte that is not part of a
   valid UTF-8 sequence (RFC 3629: no overlong form, no surrogate, nothing
   beyond U+10FFFF) as U+FFFD, so that any C string gives a valid string
   that a JSON parser reads back.  */

#ifndef NC_CLI_JSON_H
#define NC_CLI_JSON_H

#include <stddef.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence at S, 1 to 4, or 0 if S does
   not start one.  Reads no byte after a null byte.  */
int json_utf8_length (const unsigned char *s);

/* The most bytes json_string writes for a string of LEN bytes, its
   terminating null byte included: each byte may become \u00XX (6), and
   the two quotes.  */
#define JSON_STRING_SIZE(len) (6 * (len) + 3)

/* Write S into BUF as a JSON string: in double quotes, '"' and '\' as \"
   and \\, a control character (below 0x20, and 0x7f) as \u00XX, an
   invalid byte as \ufffd, the rest as is; then a null byte.  BUF has
   room for JSON_STRING_SIZE (strlen (S)) bytes.  Return the length
   written, without the null byte.  */
size_t json_string (char *buf, const char *s);

/* The JSON string of S in a buffer from xmalloc: free it.  */
char *json_string_alloc (const char *s);

/* Write the JSON string of S to OUT.  */
void json_put_string (FILE *out, const char *s);

#endif
