# Rules that turn gnulib's configured gnulib/lib/gnulib.mk (variables and
# rules for generated headers only, from gnulib-tool --gnu-make) into
# libgnu.a.  Run from the top Makefile as
#   $(MAKE) -C gnulib/lib -f gnulib.mk -f <srcdir>/build-aux/libgnu.mk \
#           srcdir=<srcdir>/gnulib/lib top_builddir=../.. libgnu.a

vpath %.c $(srcdir)
vpath %.h $(srcdir)

libgnu_objects = \
  $(patsubst %.c,%.o,$(filter %.c,$(libgnu_a_SOURCES))) \
  $(filter %.o,$(gl_LIBOBJS))

libgnu.a: $(libgnu_objects)
	rm -f $@
	$(AR) $(ARFLAGS) $@ $^
	$(RANLIB) $@

# Every object may include any generated header.
$(libgnu_objects): $(BUILT_SOURCES)

%.o: %.c
	$(CC) $(DEFS) -I. -I$(srcdir) -I$(top_builddir) $(CPPFLAGS) \
	  $(AM_CPPFLAGS) $(CFLAGS) $(SAN_CFLAGS) $(libgnu_a_CFLAGS) -c -o $@ $<

.PHONY: built-sources
built-sources: $(BUILT_SOURCES)

.PHONY: clean-libgnu
clean-libgnu:
	rm -f libgnu.a *.o $(BUILT_SOURCES) $(MOSTLYCLEANFILES)
