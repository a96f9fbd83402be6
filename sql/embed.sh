#!/bin/sh
# embed.sh SQL NAME: prints a C header that holds the file SQL as the
# string constant NAME, so schema.sql stays the one place the schema is
# written and still ships inside the module and the worker.
set -eu
sql=$1
name=$2
echo "/* generated from $(basename "$sql") by sql/embed.sh: do not edit */"
echo "static const char $name[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$sql"
echo "    ;"
