# The schemas as C headers, for the make-built programs (worker/, fuzz/;
# the nginx module makes its own in ../config).  Included by a Makefile
# one directory below the repository's top that sets OBJDIR; its objects
# depend on the headers through the order-only prerequisites of its
# pattern rule.

$(OBJDIR)/vo_schema.h: ../sql/schema.sql ../sql/embed.sh
	@mkdir -p $(OBJDIR)
	sh ../sql/embed.sh ../sql/schema.sql vo_schema_v1 > $@

$(OBJDIR)/vo_schema_pg.h: ../sql/schema_pg.sql ../sql/embed.sh
	@mkdir -p $(OBJDIR)
	sh ../sql/embed.sh ../sql/schema_pg.sql vo_schema_pg_v1 > $@
