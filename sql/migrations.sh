#!/bin/sh
# migrations.sh SUFFIX NAME: prints a C header that holds the migrations of
# sql/migrations/ as the array NAME, indexed by the version each one makes:
# NAME[N] is the SQL of sql/migrations/<N, three digits>SUFFIX.sql, which
# takes a ledger of version N-1 to N (SUFFIX "" for SQLite, "_pg" for
# PostgreSQL).  The versions the directory does not have are NULL; a
# ledger migrated across one is refused (vo_ledger_migration()).
set -eu
dir=$(dirname "$0")/migrations
suffix=$1
name=$2
echo "/* generated from sql/migrations/NNN$suffix.sql by sql/migrations.sh:"
echo " * do not edit */"
echo "static const char *const $name[] = {"
echo "    NULL,"
for f in "$dir"/[0-9][0-9][0-9]"$suffix".sql; do
    [ -e "$f" ] || continue
    v=$(basename "$f" "$suffix.sql")
    case "$v" in *[!0-9]*) continue ;; esac
    echo "    [$(expr "$v" + 0)] ="
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$f"
    echo "    ,"
done
echo "};"
