# The schema and its migrations as C headers, for the make-built programs
# (worker/, fuzz/; the nginx module makes its own in ../config).  Included
# by a Makefile one directory below the repository's top that sets
# OBJDIR; its objects depend on the headers through the order-only
# prerequisites of its pattern rule ($(VO_SCHEMA_HEADERS)).

VO_MIGRATIONS_SQL := $(wildcard ../sql/migrations/[0-9][0-9][0-9].sql)
VO_MIGRATIONS_PG  := $(wildcard ../sql/migrations/[0-9][0-9][0-9]_pg.sql)
VO_SCHEMA_HEADERS := $(OBJDIR)/vo_schema.h $(OBJDIR)/vo_schema_pg.h \
                     $(OBJDIR)/vo_migrations.h $(OBJDIR)/vo_migrations_pg.h

$(OBJDIR)/vo_schema.h: ../sql/schema.sql ../sql/embed.sh ../sql/schema.mk
	@mkdir -p $(OBJDIR)
	sh ../sql/embed.sh ../sql/schema.sql vo_schema > $@

$(OBJDIR)/vo_schema_pg.h: ../sql/schema_pg.sql ../sql/embed.sh ../sql/schema.mk
	@mkdir -p $(OBJDIR)
	sh ../sql/embed.sh ../sql/schema_pg.sql vo_schema_pg > $@

$(OBJDIR)/vo_migrations.h: $(VO_MIGRATIONS_SQL) ../sql/migrations \
                          ../sql/migrations.sh ../sql/schema.mk
	@mkdir -p $(OBJDIR)
	sh ../sql/migrations.sh "" vo_migrations > $@

$(OBJDIR)/vo_migrations_pg.h: $(VO_MIGRATIONS_PG) ../sql/migrations \
                             ../sql/migrations.sh ../sql/schema.mk
	@mkdir -p $(OBJDIR)
	sh ../sql/migrations.sh _pg vo_migrations_pg > $@
