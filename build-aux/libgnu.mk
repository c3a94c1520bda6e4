# Rules that turn gnulib's configured gnulib/lib/gnulib.mk (variables and
# rules for generated headers only, from gnulib-tool --gnu-make) into
# libgnu.a.  Run from the top Makefile as
#   $(MAKE) -C gnulib/lib -f gnulib.mk -f <srcdir>/build-aux/libgnu.mk \
#           srcdir=<srcdir>/gnulib/lib top_builddir=../.. build-libgnu

# Silent rules as in the top Makefile ("  CC    gnulib/lib/error.o"), for
# gnulib's rules too (they use automake's AM_V_GEN and AM_V_at); V=1
# shows every command, make -s none.
V = 0
nc_verbose = $(filter 1,$(V))
nc_make_s = $(findstring s,$(firstword -$(MAKEFLAGS)))
nc_say = $(if $(nc_verbose),,@$(if $(nc_make_s),,printf '  %-6s%s\n' '$(1)' 'gnulib/lib/$(2)';))
AM_V_GEN = $(call nc_say,GEN,$@)
AM_V_at = $(if $(nc_verbose),,@)

vpath %.c $(srcdir)
vpath %.h $(srcdir)

libgnu_objects = \
  $(patsubst %.c,%.o,$(filter %.c,$(libgnu_a_SOURCES))) \
  $(filter %.o,$(gl_LIBOBJS))

# The top Makefile's goal: libgnu.a, without "'libgnu.a' is up to date".
.PHONY: build-libgnu
build-libgnu: libgnu.a
	@:

libgnu.a: $(libgnu_objects)
	$(call nc_say,AR,$@)rm -f $@
	$(AM_V_at)$(AR) $(ARFLAGS) $@ $^
	$(AM_V_at)$(RANLIB) $@

# Every object may include any generated header.
$(libgnu_objects): $(BUILT_SOURCES)

# Some modules keep sources in a subdirectory (fatal-signal's
# glthread/lock.c), which an out-of-tree build directory lacks.
%.o: %.c
	$(AM_V_at)mkdir -p $(@D)
	$(call nc_say,CC,$@)$(CC) $(DEFS) -I. -I$(srcdir) -I$(top_builddir) $(CPPFLAGS) \
	  $(AM_CPPFLAGS) $(CFLAGS) $(SAN_CFLAGS) $(libgnu_a_CFLAGS) -c -o $@ $<

.PHONY: built-sources
built-sources: $(BUILT_SOURCES)

.PHONY: clean-libgnu
clean-libgnu:
	rm -f libgnu.a $(libgnu_objects) $(BUILT_SOURCES) $(MOSTLYCLEANFILES)
