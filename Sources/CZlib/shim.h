#ifndef WB_CZLIB_SHIM_H
#define WB_CZLIB_SHIM_H

/* zlib, for the raw DEFLATE (RFC 1951) streams the Hyperbasis SDK stores world maps in.
   deflateInit2/inflateInit2 are macros; these wrappers make them callable from Swift. */
#include <zlib.h>

static inline int wb_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

static inline int wb_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

#endif
