/* Derived datatypes in point-to-point (MPI-4.0 5.1): every type constructor, nested constructors, resized extents,
 * MPI_BOTTOM with absolute addresses, rendezvous-sized and medium non-contiguous messages, types freed while in
 * use (5.1.9), persistent requests, MPI_Sendrecv_replace, MPI_Get_count / MPI_Get_elements after partial messages
 * (3.2.5, 5.1.11) and truncation (3.2.4).
 *
 * Every case carries its typemap written here by hand from the constructor's definition in the standard: the
 * displacement and basic type of each entry of one element, and the extent. The sender writes pattern values
 * (test_pattern of source, destination, tag and entry index, entries numbered in typemap order across elements) at
 * those displacements and a filler byte everywhere else; the receiver fills its buffer with a sentinel first and then
 * compares the whole buffer, guard bytes on both sides included, with an image built from the hand typemap: values at
 * every typemap position, the sentinel in every gap. Each case travels three ways: derived -> derived, derived -> the
 * same signature as contiguous basic elements ("dense", e.g. a vector of 3 x 2 ints received as 6 ints), and
 * dense -> derived.
 *
 * Pairs: rank r exchanges with r ^ d for d = 1, 2, 4, ... below the size (with itself when r ^ d is not a rank), so
 * with 4 ranks on two nodes both same-node and other-node pairs are exercised whatever the mapping.
 *
 * A plain MPI-4.0 program: it also builds with mpicc.mpich and passes. The hand typemaps assume x86-64 sizes
 * (checked at compile time); struct layouts come from offsetof/sizeof. */
#include <stddef.h>

#include "test_util.h"

_Static_assert(sizeof(short) == 2 && sizeof(int) == 4 && sizeof(double) == 8, "the hand typemaps assume LP64 sizes");

enum { SENTINEL = 0xA5, SEND_FILL = 0x3C, GUARD = 64 };

/* ---- Hand typemaps ---------------------------------------------------------------------------------------------- */

/* One entry of a typemap: a basic type at a displacement (bytes from the buffer origin). */
typedef struct {
  MPI_Aint disp;
  MPI_Datatype type;
} tm_entry;

/* A case: a committed derived type, the number of elements sent, and the typemap of one element written by hand. */
typedef struct {
  const char *name;
  MPI_Datatype type;
  int count;
  MPI_Aint extent;
  tm_entry *map;
  int n, cap;
} dt_case;

static size_t basic_size(MPI_Datatype t) {
  if (t == MPI_CHAR) return sizeof(char);
  if (t == MPI_SHORT) return sizeof(short);
  if (t == MPI_INT) return sizeof(int);
  if (t == MPI_DOUBLE) return sizeof(double);
  test_fail(__FILE__, __LINE__, "basic_size", ": unexpected basic type");
  return 0;
}

static void put(dt_case *c, MPI_Aint disp, MPI_Datatype type) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->map = realloc(c->map, sizeof(tm_entry) * (size_t)c->cap);
    CHECK(c->map != NULL);
  }
  c->map[c->n].disp = disp;
  c->map[c->n].type = type;
  ++c->n;
}

/* n consecutive entries of `type` starting at disp. */
static void put_run(dt_case *c, MPI_Aint disp, MPI_Datatype type, int n) {
  for (int i = 0; i < n; ++i) put(c, disp + (MPI_Aint)i * (MPI_Aint)basic_size(type), type);
}

/* Entry k of the message (typemap order, element after element): its byte offset from the origin. */
static MPI_Aint entry_offset(const dt_case *c, long k) {
  return (MPI_Aint)(k / c->n) * c->extent + c->map[k % c->n].disp;
}

/* ---- Buffers in the derived layout and in the dense layout ------------------------------------------------------ */

/* A buffer for `count` elements of a case: the origin (address passed to MPI) sits so that every entry, at any
 * displacement (negative ones included), lies inside, with GUARD bytes before the lowest and after the highest. */
typedef struct {
  unsigned char *raw, *origin;
  size_t bytes;
} layout_buf;

static layout_buf layout_alloc(const dt_case *c, int count, int fill) {
  MPI_Aint lo = 0, hi = 0;
  for (long k = 0; k < (long)count * c->n; ++k) {
    MPI_Aint off = entry_offset(c, k), end = off + (MPI_Aint)basic_size(c->map[k % c->n].type);
    if (k == 0 || off < lo) lo = off;
    if (k == 0 || end > hi) hi = end;
  }
  layout_buf b;
  b.bytes = (size_t)(hi - lo) + 2 * GUARD;
  b.raw = test_malloc(b.bytes);
  memset(b.raw, fill, b.bytes);
  b.origin = b.raw + GUARD - lo;
  return b;
}

/* Writes the first nvalues entries of message (src, dst, tag) into a buffer whose origin is `origin`. */
static void layout_write(const dt_case *c, unsigned char *origin, long nvalues, int src, int dst, int tag) {
  for (long k = 0; k < nvalues; ++k)
    test_write_basic(origin + entry_offset(c, k), c->map[k % c->n].type, test_pattern(src, dst, tag, (uint64_t)k));
}

/* The whole buffer must equal `fill` with the first nvalues entries of message (src, dst, tag) at their typemap
 * positions: data checked at every position, gaps and guards unchanged. */
static void layout_check(const dt_case *c, const layout_buf *b, long nvalues, int fill, int src, int dst, int tag,
                         const char *what, int line) {
  unsigned char *want = test_malloc(b->bytes);
  memset(want, fill, b->bytes);
  layout_write(c, want + (b->origin - b->raw), nvalues, src, dst, tag);
  if (memcmp(want, b->raw, b->bytes) != 0) {
    size_t i = 0;
    while (want[i] == b->raw[i]) ++i;
    char detail[300];
    snprintf(detail, sizeof detail, ": %s, %s: byte at offset %ld from the origin is 0x%02x, expected 0x%02x (%s)",
             c->name, what, (long)((b->raw + i) - b->origin), b->raw[i], want[i],
             want[i] == fill ? "a gap or guard byte was written" : "data");
    test_fail(__FILE__, line, "received derived-layout buffer", detail);
  }
  free(want);
}

/* The dense layout: the first nvalues entries packed one after the other, then GUARD bytes. */
static size_t dense_bytes(const dt_case *c, long nvalues) {
  size_t bytes = 0;
  for (long k = 0; k < nvalues; ++k) bytes += basic_size(c->map[k % c->n].type);
  return bytes;
}

static void dense_write(const dt_case *c, unsigned char *p, long nvalues, int src, int dst, int tag) {
  for (long k = 0; k < nvalues; ++k) {
    MPI_Datatype t = c->map[k % c->n].type;
    test_write_basic(p, t, test_pattern(src, dst, tag, (uint64_t)k));
    p += basic_size(t);
  }
}

static unsigned char *dense_alloc(const dt_case *c, long nvalues) {
  size_t bytes = dense_bytes(c, nvalues) + GUARD;
  unsigned char *p = test_malloc(bytes);
  memset(p, SENTINEL, bytes);
  return p;
}

static void dense_check(const dt_case *c, const unsigned char *p, long nvalues, int src, int dst, int tag,
                        const char *what, int line) {
  size_t bytes = dense_bytes(c, nvalues) + GUARD;
  unsigned char *want = test_malloc(bytes);
  memset(want, SENTINEL, bytes);
  dense_write(c, want, nvalues, src, dst, tag);
  if (memcmp(want, p, bytes) != 0) {
    size_t i = 0;
    while (want[i] == p[i]) ++i;
    char detail[300];
    snprintf(detail, sizeof detail, ": %s, %s: dense byte %zu is 0x%02x, expected 0x%02x", c->name, what, i, p[i],
             want[i]);
    test_fail(__FILE__, line, "received dense buffer", detail);
  }
  free(want);
}

/* The type of `count` elements in the dense layout: the case's basic type (count * n of them) when the typemap has
 * only one, else a struct of the element's runs of equal basic types, resized to the element's size so that
 * elements follow each other without padding (count of them). *derived says whether the caller must free it. */
static void dense_type(const dt_case *c, int count, MPI_Datatype *type, int *type_count, int *derived) {
  int uniform = 1;
  for (int j = 1; j < c->n; ++j) uniform &= c->map[j].type == c->map[0].type;
  if (uniform) {
    *type = c->map[0].type;
    *type_count = count * c->n;
    *derived = 0;
    return;
  }
  int *blens = test_malloc(sizeof(int) * (size_t)c->n);
  MPI_Aint *disps = test_malloc(sizeof(MPI_Aint) * (size_t)c->n);
  MPI_Datatype *types = test_malloc(sizeof(MPI_Datatype) * (size_t)c->n);
  int runs = 0;
  MPI_Aint off = 0;
  for (int j = 0; j < c->n; ++j) {
    if (runs > 0 && types[runs - 1] == c->map[j].type) {
      ++blens[runs - 1];
    } else {
      blens[runs] = 1;
      disps[runs] = off;
      types[runs] = c->map[j].type;
      ++runs;
    }
    off += (MPI_Aint)basic_size(c->map[j].type);
  }
  MPI_Datatype runs_type;
  CHECK_MPI(MPI_Type_create_struct(runs, blens, disps, types, &runs_type));
  CHECK_MPI(MPI_Type_create_resized(runs_type, 0, off, type));
  CHECK_MPI(MPI_Type_free(&runs_type));
  CHECK_MPI(MPI_Type_commit(type));
  *type_count = count;
  *derived = 1;
  free(blens);
  free(disps);
  free(types);
}

/* ---- The cases: each builds its MPI type and writes the same typemap by hand ------------------------------------ */

/* contiguous(5, int): ints at 0, 4, 8, 12, 16; extent 20. */
static void build_contiguous(dt_case *c) {
  c->name = "contiguous(5, MPI_INT)";
  c->count = 3;
  c->extent = 20;
  put_run(c, 0, MPI_INT, 5);
  CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &c->type));
}

/* vector(3, 2, 4, int): blocks of 2 ints every 4 ints: 0, 4 | 16, 20 | 32, 36; extent ((3-1)*4 + 2) * 4 = 40. */
static void build_vector(dt_case *c) {
  c->name = "vector(3, 2, 4, MPI_INT)";
  c->count = 2;
  c->extent = 40;
  put_run(c, 0, MPI_INT, 2);
  put_run(c, 16, MPI_INT, 2);
  put_run(c, 32, MPI_INT, 2);
  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &c->type));
}

/* vector(4, 1, 3, double): doubles at 0, 24, 48, 72; extent (3*3 + 1) * 8 = 80. */
static void build_vector_double(dt_case *c) {
  c->name = "vector(4, 1, 3, MPI_DOUBLE)";
  c->count = 3;
  c->extent = 80;
  for (int i = 0; i < 4; ++i) put(c, 24 * i, MPI_DOUBLE);
  CHECK_MPI(MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &c->type));
}

/* hvector(4, 3, 11 bytes, char): 3 chars at 0, 11, 22, 33; extent 33 + 3 = 36. */
static void build_hvector(dt_case *c) {
  c->name = "hvector(4, 3, 11, MPI_CHAR)";
  c->count = 2;
  c->extent = 36;
  for (int i = 0; i < 4; ++i) put_run(c, 11 * i, MPI_CHAR, 3);
  CHECK_MPI(MPI_Type_create_hvector(4, 3, 11, MPI_CHAR, &c->type));
}

/* hvector(3, 2, -24 bytes, double): blocks at 0, -24, -48 in that order: 0, 8, -24, -16, -48, -40; lb -48, ub 16,
 * extent 64. Element 1 starts 64 bytes after element 0, above it. */
static void build_hvector_negative(dt_case *c) {
  c->name = "hvector(3, 2, -24, MPI_DOUBLE)";
  c->count = 2;
  c->extent = 64;
  put_run(c, 0, MPI_DOUBLE, 2);
  put_run(c, -24, MPI_DOUBLE, 2);
  put_run(c, -48, MPI_DOUBLE, 2);
  CHECK_MPI(MPI_Type_create_hvector(3, 2, -24, MPI_DOUBLE, &c->type));
}

/* indexed({2, 1, 3}, {4, -3, 0}, int): ints 4, 5 | -3 | 0, 1, 2, in that order: bytes 16, 20, -12, 0, 4, 8;
 * lb -12, ub 24, extent 36. */
static void build_indexed(dt_case *c) {
  c->name = "indexed({2,1,3}, {4,-3,0}, MPI_INT)";
  c->count = 2;
  c->extent = 36;
  put_run(c, 16, MPI_INT, 2);
  put(c, -12, MPI_INT);
  put_run(c, 0, MPI_INT, 3);
  int blens[3] = {2, 1, 3}, disps[3] = {4, -3, 0};
  CHECK_MPI(MPI_Type_indexed(3, blens, disps, MPI_INT, &c->type));
}

/* hindexed({2, 1, 1}, {40, 8, -16} bytes, double): 40, 48 | 8 | -16; lb -16, ub 56, extent 72. */
static void build_hindexed(dt_case *c) {
  c->name = "hindexed({2,1,1}, {40,8,-16}, MPI_DOUBLE)";
  c->count = 2;
  c->extent = 72;
  put_run(c, 40, MPI_DOUBLE, 2);
  put(c, 8, MPI_DOUBLE);
  put(c, -16, MPI_DOUBLE);
  int blens[3] = {2, 1, 1};
  MPI_Aint disps[3] = {40, 8, -16};
  CHECK_MPI(MPI_Type_create_hindexed(3, blens, disps, MPI_DOUBLE, &c->type));
}

/* indexed_block(2, {7, 0, 3, 12}, int): ints 7, 8 | 0, 1 | 3, 4 | 12, 13; lb 0, ub 56, extent 56. */
static void build_indexed_block(dt_case *c) {
  c->name = "indexed_block(2, {7,0,3,12}, MPI_INT)";
  c->count = 3;
  c->extent = 56;
  put_run(c, 28, MPI_INT, 2);
  put_run(c, 0, MPI_INT, 2);
  put_run(c, 12, MPI_INT, 2);
  put_run(c, 48, MPI_INT, 2);
  int disps[4] = {7, 0, 3, 12};
  CHECK_MPI(MPI_Type_create_indexed_block(4, 2, disps, MPI_INT, &c->type));
}

/* hindexed_block(3, {0, -20, 30} bytes, short): 0, 2, 4 | -20, -18, -16 | 30, 32, 34; lb -20, ub 36, extent 56. */
static void build_hindexed_block(dt_case *c) {
  c->name = "hindexed_block(3, {0,-20,30}, MPI_SHORT)";
  c->count = 2;
  c->extent = 56;
  put_run(c, 0, MPI_SHORT, 3);
  put_run(c, -20, MPI_SHORT, 3);
  put_run(c, 30, MPI_SHORT, 3);
  MPI_Aint disps[3] = {0, -20, 30};
  CHECK_MPI(MPI_Type_create_hindexed_block(3, 3, disps, MPI_SHORT, &c->type));
}

/* struct {char; double; int}: the last entry ends at 20 (x86-64), the extent is rounded up to the alignment of the
 * double (the epsilon in the definition of the extent, 5.1): sizeof, 24. */
struct cdi {
  char c;
  double d;
  int i;
};
static void build_struct(dt_case *c) {
  c->name = "struct{char; double; int}";
  c->count = 4;
  c->extent = sizeof(struct cdi);
  put(c, offsetof(struct cdi, c), MPI_CHAR);
  put(c, offsetof(struct cdi, d), MPI_DOUBLE);
  put(c, offsetof(struct cdi, i), MPI_INT);
  int blens[3] = {1, 1, 1};
  MPI_Aint disps[3] = {offsetof(struct cdi, c), offsetof(struct cdi, d), offsetof(struct cdi, i)};
  MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
  CHECK_MPI(MPI_Type_create_struct(3, blens, disps, types, &c->type));
}

/* struct {char[3]; double[2]; int; short}: blocks of several elements, padding inside and at the end (ends at 30,
 * extent 32 on x86-64). */
struct arrays {
  char tag[3];
  double v[2];
  int n;
  short s;
};
static void build_struct_arrays(dt_case *c) {
  c->name = "struct{char[3]; double[2]; int; short}";
  c->count = 3;
  c->extent = sizeof(struct arrays);
  put_run(c, offsetof(struct arrays, tag), MPI_CHAR, 3);
  put_run(c, offsetof(struct arrays, v), MPI_DOUBLE, 2);
  put(c, offsetof(struct arrays, n), MPI_INT);
  put(c, offsetof(struct arrays, s), MPI_SHORT);
  int blens[4] = {3, 2, 1, 1};
  MPI_Aint disps[4] = {offsetof(struct arrays, tag), offsetof(struct arrays, v), offsetof(struct arrays, n),
                       offsetof(struct arrays, s)};
  MPI_Datatype types[4] = {MPI_CHAR, MPI_DOUBLE, MPI_INT, MPI_SHORT};
  CHECK_MPI(MPI_Type_create_struct(4, blens, disps, types, &c->type));
}

/* A struct of vectors: a = vector(2, 1, 3, int) (ints 0, 12; extent 16) once at 0, b = vector(2, 1, 2, double)
 * (doubles 0, 16; extent 24) twice at 24: ints 0, 12, doubles 24, 40, 48, 64; ub 24 + 2 * 24 = 72, extent 72. */
static void build_struct_of_vectors(dt_case *c) {
  c->name = "struct{vector int; 2 x vector double}";
  c->count = 2;
  c->extent = 72;
  put(c, 0, MPI_INT);
  put(c, 12, MPI_INT);
  put(c, 24, MPI_DOUBLE);
  put(c, 40, MPI_DOUBLE);
  put(c, 48, MPI_DOUBLE);
  put(c, 64, MPI_DOUBLE);
  MPI_Datatype a, b;
  CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &a));
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &b));
  int blens[2] = {1, 2};
  MPI_Aint disps[2] = {0, 24};
  MPI_Datatype types[2] = {a, b};
  CHECK_MPI(MPI_Type_create_struct(2, blens, disps, types, &c->type));
  /* 5.1.9: freeing the components does not affect the type built from them. */
  CHECK_MPI(MPI_Type_free(&a));
  CHECK_MPI(MPI_Type_free(&b));
}

/* subarray, C order: a 4 x 5 x 6 int array, the 2 x 3 x 2 block at (1, 1, 3); the last index varies fastest. The
 * extent is the whole array, 480 bytes. */
static void build_subarray_c(dt_case *c) {
  c->name = "subarray C 4x5x6 [1+2][1+3][3+2] MPI_INT";
  c->count = 2;
  c->extent = 4 * 5 * 6 * 4;
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i1 = 0; i1 < 3; ++i1)
      for (int i2 = 0; i2 < 2; ++i2) put(c, (((1 + i0) * 5 + (1 + i1)) * 6 + (3 + i2)) * 4, MPI_INT);
  int sizes[3] = {4, 5, 6}, subsizes[3] = {2, 3, 2}, starts[3] = {1, 1, 3};
  CHECK_MPI(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &c->type));
}

/* subarray, Fortran order: a 4 x 5 x 6 double array, the 3 x 2 x 2 block at (0, 2, 4); the first index varies
 * fastest: element (i0, i1, i2) at i0 + 4 * (i1 + 5 * i2). Extent 960 bytes. */
static void build_subarray_fortran(dt_case *c) {
  c->name = "subarray Fortran 4x5x6 (0+3, 2+2, 4+2) MPI_DOUBLE";
  c->count = 2;
  c->extent = 4 * 5 * 6 * 8;
  for (int i2 = 0; i2 < 2; ++i2)
    for (int i1 = 0; i1 < 2; ++i1)
      for (int i0 = 0; i0 < 3; ++i0) put(c, ((0 + i0) + 4 * ((2 + i1) + 5 * (4 + i2))) * 8, MPI_DOUBLE);
  int sizes[3] = {4, 5, 6}, subsizes[3] = {3, 2, 2}, starts[3] = {0, 2, 4};
  CHECK_MPI(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &c->type));
}

/* resized(vector(2, 1, 2, int), lb -4, extent 20): ints at 0, 8 (the vector's extent was 12); elements 20 apart. */
static void build_resized_larger(dt_case *c) {
  c->name = "resized(vector(2,1,2,MPI_INT), -4, 20)";
  c->count = 4;
  c->extent = 20;
  put(c, 0, MPI_INT);
  put(c, 8, MPI_INT);
  MPI_Datatype v;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
  CHECK_MPI(MPI_Type_create_resized(v, -4, 20, &c->type));
  CHECK_MPI(MPI_Type_free(&v));
}

/* resized(vector(3, 1, 4, int), 0, 4): ints at 0, 16, 32, elements 4 bytes apart, so 4 elements interleave into the
 * 12 ints 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11 (a transpose). */
static void build_resized_interleaved(dt_case *c) {
  c->name = "resized(vector(3,1,4,MPI_INT), 0, 4)";
  c->count = 4;
  c->extent = 4;
  put(c, 0, MPI_INT);
  put(c, 16, MPI_INT);
  put(c, 32, MPI_INT);
  MPI_Datatype v;
  CHECK_MPI(MPI_Type_vector(3, 1, 4, MPI_INT, &v));
  CHECK_MPI(MPI_Type_create_resized(v, 0, 4, &c->type));
  CHECK_MPI(MPI_Type_free(&v));
}

/* Type_dup of vector(3, 2, 4, int), the original freed at once: the same typemap as build_vector. */
static void build_dup(dt_case *c) {
  c->name = "dup(vector(3, 2, 4, MPI_INT))";
  c->count = 2;
  c->extent = 40;
  put_run(c, 0, MPI_INT, 2);
  put_run(c, 16, MPI_INT, 2);
  put_run(c, 32, MPI_INT, 2);
  MPI_Datatype v;
  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &v));
  CHECK_MPI(MPI_Type_dup(v, &c->type));
  CHECK_MPI(MPI_Type_free(&v));
}

/* Three levels over a struct: S = struct {int at 0; char at 4}; R = resized(S, lb -4, extent 16) (lb marker at -4,
 * ub marker at 12); I = indexed({2, 1}, {0, 3}, R): copies of R at 0, 16 and 3 * 16 = 48, so lb -4, ub 48 + 12 = 60,
 * extent 64; V = vector(2, 1, 2, I): copies of I at 0 and 2 * 64 = 128, lb -4, ub 128 + 60 = 188, extent 192.
 * Entries of V: 128 * k + {0 int, 4 char, 16 int, 20 char, 48 int, 52 char}, k = 0, 1. */
static void build_nested(dt_case *c) {
  c->name = "vector(indexed(resized(struct{int; char})))";
  c->count = 2;
  c->extent = 192;
  for (int k = 0; k < 2; ++k) {
    const MPI_Aint copies[3] = {0, 16, 48};
    for (int j = 0; j < 3; ++j) {
      put(c, 128 * k + copies[j], MPI_INT);
      put(c, 128 * k + copies[j] + 4, MPI_CHAR);
    }
  }
  int blens[2] = {1, 1}, iblens[2] = {2, 1}, idisps[2] = {0, 3};
  MPI_Aint disps[2] = {0, 4};
  MPI_Datatype types[2] = {MPI_INT, MPI_CHAR}, s, r, i;
  CHECK_MPI(MPI_Type_create_struct(2, blens, disps, types, &s));
  CHECK_MPI(MPI_Type_create_resized(s, -4, 16, &r));
  CHECK_MPI(MPI_Type_indexed(2, iblens, idisps, r, &i));
  CHECK_MPI(MPI_Type_vector(2, 1, 2, i, &c->type));
  CHECK_MPI(MPI_Type_free(&s));
  CHECK_MPI(MPI_Type_free(&r));
  CHECK_MPI(MPI_Type_free(&i));
}

/* vector(blocks, 3, 5, int), 2 elements. */
static void build_vector_of_blocks(dt_case *c, const char *name, int blocks) {
  c->name = name;
  c->count = 2;
  c->extent = ((MPI_Aint)(blocks - 1) * 5 + 3) * 4;
  for (int b = 0; b < blocks; ++b) put_run(c, (MPI_Aint)b * 20, MPI_INT, 3);
  CHECK_MPI(MPI_Type_vector(blocks, 3, 5, MPI_INT, &c->type));
}

/* Large (rendezvous): 1.2 MB of data spread over 2 MB. */
static void build_large_vector(dt_case *c) { build_vector_of_blocks(c, "large vector(50021, 3, 5, MPI_INT)", 50021); }

/* Medium: 48 KB of data, an eager message that goes in pieces between nodes (transport/wire.hpp: More). */
static void build_medium_vector(dt_case *c) { build_vector_of_blocks(c, "medium vector(2001, 3, 5, MPI_INT)", 2001); }

/* Large (rendezvous): 100003 elements of struct {double; int; char} (13 bytes of data, extent 16): 1.3 MB. */
struct dic {
  double d;
  int i;
  char c;
};
static void build_large_struct(dt_case *c) {
  c->name = "large 100003 x struct{double; int; char}";
  c->count = 100003;
  c->extent = sizeof(struct dic);
  put(c, offsetof(struct dic, d), MPI_DOUBLE);
  put(c, offsetof(struct dic, i), MPI_INT);
  put(c, offsetof(struct dic, c), MPI_CHAR);
  int blens[3] = {1, 1, 1};
  MPI_Aint disps[3] = {offsetof(struct dic, d), offsetof(struct dic, i), offsetof(struct dic, c)};
  MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  CHECK_MPI(MPI_Type_create_struct(3, blens, disps, types, &c->type));
}

typedef void (*case_builder)(dt_case *);
static const case_builder builders[] = {
    build_contiguous,
    build_vector,
    build_vector_double,
    build_hvector,
    build_hvector_negative,
    build_indexed,
    build_hindexed,
    build_indexed_block,
    build_hindexed_block,
    build_struct,
    build_struct_arrays,
    build_struct_of_vectors,
    build_subarray_c,
    build_subarray_fortran,
    build_resized_larger,
    build_resized_interleaved,
    build_dup,
    build_nested,
    build_large_vector,
    build_large_struct,
    build_medium_vector,
};
enum { NCASES = sizeof builders / sizeof builders[0] };
/* Cases the special exchanges reuse (indices into builders[], checked in main). */
enum { CASE_VECTOR = 1, CASE_INDEXED = 5, CASE_NESTED = 17, CASE_LARGE_VECTOR = 18, CASE_LARGE_STRUCT = 19 };

static dt_case make_case(int i) {
  dt_case c;
  memset(&c, 0, sizeof c);
  c.type = MPI_DATATYPE_NULL;
  builders[i](&c);
  CHECK(c.type != MPI_DATATYPE_NULL && c.n > 0);
  CHECK_MPI(MPI_Type_commit(&c.type));
  return c;
}

static void free_case(dt_case *c) {
  CHECK_MPI(MPI_Type_free(&c->type));
  CHECK(c->type == MPI_DATATYPE_NULL);
  free(c->map);
}

/* ---- Exchanges -------------------------------------------------------------------------------------------------- */

static int rank, size;

static void check_status(const MPI_Status *st, int src, int tag, MPI_Datatype type, int want_count, long want_elements,
                         const char *name, int line) {
  int count = -12345, elements = -12345;
  MPI_Count elements_x = -12345;
  CHECK_MPI(MPI_Get_count(st, type, &count));
  CHECK_MPI(MPI_Get_elements(st, type, &elements));
  CHECK_MPI(MPI_Get_elements_x(st, type, &elements_x));
  if (st->MPI_SOURCE != src || st->MPI_TAG != tag || count != want_count || elements != want_elements ||
      elements_x != want_elements) {
    char detail[300];
    snprintf(detail, sizeof detail,
             ": %s: source %d (want %d), tag %d (want %d), count %d (want %d), elements %d / %lld (want %ld)", name,
             st->MPI_SOURCE, src, st->MPI_TAG, tag, count, want_count, elements, (long long)elements_x, want_elements);
    test_fail(__FILE__, line, "status of a derived-type receive", detail);
  }
}

/* Derived -> derived, derived -> dense, dense -> derived. Each mode also uses different calls. */
enum { MODE_DERIVED, MODE_TO_DENSE, MODE_FROM_DENSE, NMODES };
static const char *const mode_names[NMODES] = {"derived -> derived (Irecv, Send)", "derived -> dense (Isend, Recv)",
                                               "dense -> derived (Irecv, Isend, Waitall)"};

static void exchange_case(const dt_case *c, int ci, int peer) {
  long nvalues = (long)c->count * c->n;
  MPI_Datatype dtype;
  int dcount, dderived;
  dense_type(c, c->count, &dtype, &dcount, &dderived);
  for (int mode = 0; mode < NMODES; ++mode) {
    int tag = ci * NMODES + mode;
    /* Send side. */
    layout_buf sbuf = layout_alloc(c, c->count, SEND_FILL);
    unsigned char *sdense = dense_alloc(c, nvalues);
    const void *sptr = sbuf.origin;
    MPI_Datatype stype = c->type;
    int scount = c->count;
    if (mode == MODE_FROM_DENSE) {
      dense_write(c, sdense, nvalues, rank, peer, tag);
      sptr = sdense;
      stype = dtype;
      scount = dcount;
    } else {
      layout_write(c, sbuf.origin, nvalues, rank, peer, tag);
    }
    /* Receive side. */
    layout_buf rbuf = layout_alloc(c, c->count, SENTINEL);
    unsigned char *rdense = dense_alloc(c, nvalues);
    void *rptr = mode == MODE_TO_DENSE ? (void *)rdense : (void *)rbuf.origin;
    MPI_Datatype rtype = mode == MODE_TO_DENSE ? dtype : c->type;
    int rcount = mode == MODE_TO_DENSE ? dcount : c->count;

    MPI_Request reqs[2];
    MPI_Status st;
    test_poison_status(&st);
    if (mode == MODE_DERIVED) {
      CHECK_MPI(MPI_Irecv(rptr, rcount, rtype, peer, tag, MPI_COMM_WORLD, &reqs[0]));
      CHECK_MPI(MPI_Send(sptr, scount, stype, peer, tag, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Wait(&reqs[0], &st));
    } else if (mode == MODE_TO_DENSE) {
      CHECK_MPI(MPI_Isend(sptr, scount, stype, peer, tag, MPI_COMM_WORLD, &reqs[1]));
      CHECK_MPI(MPI_Recv(rptr, rcount, rtype, peer, tag, MPI_COMM_WORLD, &st));
      CHECK_MPI(MPI_Wait(&reqs[1], MPI_STATUS_IGNORE));
    } else {
      MPI_Status sts[2];
      CHECK_MPI(MPI_Irecv(rptr, rcount, rtype, peer, tag, MPI_COMM_WORLD, &reqs[0]));
      CHECK_MPI(MPI_Isend(sptr, scount, stype, peer, tag, MPI_COMM_WORLD, &reqs[1]));
      CHECK_MPI(MPI_Waitall(2, reqs, sts));
      st = sts[0];
    }
    check_status(&st, peer, tag, rtype, rcount, nvalues, c->name, __LINE__);
    if (mode == MODE_TO_DENSE)
      dense_check(c, rdense, nvalues, peer, rank, tag, mode_names[mode], __LINE__);
    else
      layout_check(c, &rbuf, nvalues, SENTINEL, peer, rank, tag, mode_names[mode], __LINE__);
    free(sbuf.raw);
    free(rbuf.raw);
    free(sdense);
    free(rdense);
  }
  if (dderived) CHECK_MPI(MPI_Type_free(&dtype));
}

/* MPI_BOTTOM (5.1.12): a struct of absolute addresses from MPI_Get_address, over three separate arrays: ints a[1..3],
 * doubles d[1..2], chars s[2..6]; the other array elements must keep the sentinel. */
typedef struct {
  int a[6];
  double pad0; /* keeps the arrays apart: nothing between them may be written */
  double d[4];
  double pad1;
  char s[9];
} bottom_vars;

static void bottom_fill(bottom_vars *v, int with_values, int src, int dst, int tag) {
  memset(v, SENTINEL, sizeof *v);
  if (!with_values) return;
  unsigned char *p[10] = {(unsigned char *)&v->a[1], (unsigned char *)&v->a[2], (unsigned char *)&v->a[3],
                          (unsigned char *)&v->d[1], (unsigned char *)&v->d[2]};
  MPI_Datatype t[10] = {MPI_INT, MPI_INT, MPI_INT, MPI_DOUBLE, MPI_DOUBLE};
  for (int k = 0; k < 5; ++k) {
    p[5 + k] = (unsigned char *)&v->s[2 + k];
    t[5 + k] = MPI_CHAR;
  }
  for (int k = 0; k < 10; ++k) test_write_basic(p[k], t[k], test_pattern(src, dst, tag, (uint64_t)k));
}

static MPI_Datatype bottom_type(bottom_vars *v) {
  int blens[3] = {3, 2, 5};
  MPI_Aint disps[3];
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;
  CHECK_MPI(MPI_Get_address(&v->a[1], &disps[0]));
  CHECK_MPI(MPI_Get_address(&v->d[1], &disps[1]));
  CHECK_MPI(MPI_Get_address(&v->s[2], &disps[2]));
  CHECK_MPI(MPI_Type_create_struct(3, blens, disps, types, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  return t;
}

/* Dense form of the same signature: 3 ints, 2 doubles, 5 chars packed (12 + 16 + 5 bytes). */
static MPI_Datatype bottom_dense_type(void) {
  int blens[3] = {3, 2, 5};
  MPI_Aint disps[3] = {0, 12, 28};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;
  CHECK_MPI(MPI_Type_create_struct(3, blens, disps, types, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  return t;
}

static void bottom_dense_write(unsigned char *p, int src, int dst, int tag) {
  for (int k = 0; k < 10; ++k) {
    MPI_Datatype t = k < 3 ? MPI_INT : k < 5 ? MPI_DOUBLE : MPI_CHAR;
    test_write_basic(p, t, test_pattern(src, dst, tag, (uint64_t)k));
    p += basic_size(t);
  }
}

static void exchange_bottom(int peer, int tag0) {
  bottom_vars *sv = test_malloc(sizeof *sv), *rv = test_malloc(sizeof *rv), *want = test_malloc(sizeof *want);
  MPI_Datatype st_type = bottom_type(sv), rt_type = bottom_type(rv), dense = bottom_dense_type();
  unsigned char sdense[64], rdense[64], wdense[64];
  for (int mode = 0; mode < NMODES; ++mode) {
    int tag = tag0 + mode;
    MPI_Request req;
    MPI_Status st;
    bottom_fill(sv, 1, rank, peer, tag);
    bottom_fill(rv, 0, 0, 0, 0);
    memset(sdense, SEND_FILL, sizeof sdense);
    memset(rdense, SENTINEL, sizeof rdense);
    bottom_dense_write(sdense, rank, peer, tag);
    if (mode == MODE_TO_DENSE)
      CHECK_MPI(MPI_Irecv(rdense, 1, dense, peer, tag, MPI_COMM_WORLD, &req));
    else
      CHECK_MPI(MPI_Irecv(MPI_BOTTOM, 1, rt_type, peer, tag, MPI_COMM_WORLD, &req));
    if (mode == MODE_FROM_DENSE)
      CHECK_MPI(MPI_Send(sdense, 1, dense, peer, tag, MPI_COMM_WORLD));
    else
      CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, st_type, peer, tag, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    check_status(&st, peer, tag, mode == MODE_TO_DENSE ? dense : rt_type, 1, 10, "MPI_BOTTOM struct", __LINE__);
    if (mode == MODE_TO_DENSE) {
      memset(wdense, SENTINEL, sizeof wdense);
      bottom_dense_write(wdense, peer, rank, tag);
      if (memcmp(wdense, rdense, sizeof wdense) != 0) test_fail(__FILE__, __LINE__, "MPI_BOTTOM -> dense", "");
    } else {
      bottom_fill(want, 1, peer, rank, tag);
      if (memcmp(want, rv, sizeof *want) != 0) {
        char detail[96];
        snprintf(detail, sizeof detail, ": %s", mode_names[mode]);
        test_fail(__FILE__, __LINE__, "receive at MPI_BOTTOM with absolute addresses", detail);
      }
    }
  }
  CHECK_MPI(MPI_Type_free(&st_type));
  CHECK_MPI(MPI_Type_free(&rt_type));
  CHECK_MPI(MPI_Type_free(&dense));
  free(sv);
  free(rv);
  free(want);
}

/* MPI-4.0 5.1.9 (MPI_TYPE_FREE): "Any communication that is currently using this datatype will complete normally": the
 * types are built afresh (nothing else holds them) and freed right after the Irecv / Isend are posted, before the
 * Waitall. */
static void exchange_freed_types(int ci, int peer, int tag) {
  dt_case sc = make_case(ci), rc = make_case(ci);
  long nvalues = (long)sc.count * sc.n;
  layout_buf sbuf = layout_alloc(&sc, sc.count, SEND_FILL), rbuf = layout_alloc(&rc, rc.count, SENTINEL);
  layout_write(&sc, sbuf.origin, nvalues, rank, peer, tag);
  MPI_Request reqs[2];
  MPI_Status sts[2];
  CHECK_MPI(MPI_Irecv(rbuf.origin, rc.count, rc.type, peer, tag, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Type_free(&rc.type));
  CHECK_MPI(MPI_Isend(sbuf.origin, sc.count, sc.type, peer, tag, MPI_COMM_WORLD, &reqs[1]));
  CHECK_MPI(MPI_Type_free(&sc.type));
  CHECK(rc.type == MPI_DATATYPE_NULL && sc.type == MPI_DATATYPE_NULL);
  CHECK_MPI(MPI_Waitall(2, reqs, sts));
  CHECK(sts[0].MPI_SOURCE == peer && sts[0].MPI_TAG == tag);
  layout_check(&rc, &rbuf, nvalues, SENTINEL, peer, rank, tag, "type freed before the Wait", __LINE__);
  free(sbuf.raw);
  free(rbuf.raw);
  free(sc.map);
  free(rc.map);
}

/* Persistent send and receive with a derived type, started 3 times; the send buffer gets new values before each
 * start and the receive buffer a fresh sentinel. */
static void exchange_persistent(const dt_case *c, int peer, int tag) {
  long nvalues = (long)c->count * c->n;
  layout_buf sbuf = layout_alloc(c, c->count, SEND_FILL), rbuf = layout_alloc(c, c->count, SENTINEL);
  MPI_Request reqs[2];
  CHECK_MPI(MPI_Recv_init(rbuf.origin, c->count, c->type, peer, tag, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Send_init(sbuf.origin, c->count, c->type, peer, tag, MPI_COMM_WORLD, &reqs[1]));
  for (int round = 0; round < 3; ++round) {
    int seed = 5000 + round; /* the pattern's tag: different values every round */
    memset(rbuf.raw, SENTINEL, rbuf.bytes);
    layout_write(c, sbuf.origin, nvalues, rank, peer, seed);
    MPI_Status sts[2];
    CHECK_MPI(MPI_Startall(2, reqs));
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL);
    check_status(&sts[0], peer, tag, c->type, c->count, nvalues, c->name, __LINE__);
    layout_check(c, &rbuf, nvalues, SENTINEL, peer, rank, seed, "persistent request", __LINE__);
  }
  CHECK_MPI(MPI_Request_free(&reqs[0]));
  CHECK_MPI(MPI_Request_free(&reqs[1]));
  free(sbuf.raw);
  free(rbuf.raw);
}

/* MPI_Sendrecv_replace: the typemap positions get the peer's values, gaps and guards keep what they held. */
static void exchange_replace(const dt_case *c, int peer, int tag) {
  long nvalues = (long)c->count * c->n;
  layout_buf buf = layout_alloc(c, c->count, SEND_FILL);
  layout_write(c, buf.origin, nvalues, rank, peer, tag);
  MPI_Status st;
  test_poison_status(&st);
  CHECK_MPI(MPI_Sendrecv_replace(buf.origin, c->count, c->type, peer, tag, peer, tag, MPI_COMM_WORLD, &st));
  check_status(&st, peer, tag, c->type, c->count, nvalues, c->name, __LINE__);
  layout_check(c, &buf, nvalues, SEND_FILL, peer, rank, tag, "MPI_Sendrecv_replace", __LINE__);
  free(buf.raw);
}

/* ---- Partial messages: MPI_Get_count and MPI_Get_elements (MPI-4.0 3.2.5, 5.1.11) -------------------------------- */

/* vector(2, 2, 3, int): ints at 0, 4, 12, 16 (4 per element), extent 20; the receive has room for 5 elements. The
 * sender sends k ints: Get_count is k / 4 when 4 divides k, else MPI_UNDEFINED; Get_elements is k either way. */
static void partial_vector(int peer, int tag0) {
  dt_case c;
  memset(&c, 0, sizeof c);
  c.name = "vector(2, 2, 3, MPI_INT) x 5, partial";
  c.extent = 20;
  put(&c, 0, MPI_INT);
  put(&c, 4, MPI_INT);
  put(&c, 12, MPI_INT);
  put(&c, 16, MPI_INT);
  CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &c.type));
  CHECK_MPI(MPI_Type_commit(&c.type));
  static const int sent[] = {0, 8, 10, 13, 20};
  for (int i = 0; i < (int)(sizeof sent / sizeof sent[0]); ++i) {
    int k = sent[i], tag = tag0 + i;
    int out[20];
    for (int j = 0; j < k; ++j) test_write_basic((unsigned char *)&out[j], MPI_INT, test_pattern(rank, peer, tag, j));
    layout_buf rbuf = layout_alloc(&c, 5, SENTINEL);
    MPI_Request req;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(rbuf.origin, 5, c.type, peer, tag, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Send(out, k, MPI_INT, peer, tag, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    check_status(&st, peer, tag, c.type, k % 4 == 0 ? k / 4 : MPI_UNDEFINED, k, c.name, __LINE__);
    layout_check(&c, &rbuf, k, SENTINEL, peer, rank, tag, "partial message", __LINE__);
    free(rbuf.raw);
  }
  free_case(&c);
}

/* struct {int; double} (extent 16), room for 3 elements (int, double, int, double, int, double). The sender sends a
 * prefix of that signature as a packed struct: (int), (int, double, int), (int, double, int, double). Get_count:
 * MPI_UNDEFINED, MPI_UNDEFINED, 2; Get_elements: 1, 3, 4 basic elements. */
struct id {
  int i;
  double d;
};
static void partial_struct(int peer, int tag0) {
  dt_case c;
  memset(&c, 0, sizeof c);
  c.name = "struct{int; double} x 3, partial";
  c.extent = sizeof(struct id);
  put(&c, offsetof(struct id, i), MPI_INT);
  put(&c, offsetof(struct id, d), MPI_DOUBLE);
  int blens[4] = {1, 1, 1, 1};
  MPI_Aint disps[4] = {offsetof(struct id, i), offsetof(struct id, d)};
  MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_INT, MPI_DOUBLE};
  CHECK_MPI(MPI_Type_create_struct(2, blens, disps, types, &c.type));
  CHECK_MPI(MPI_Type_commit(&c.type));
  static const int sent[] = {1, 3, 4};
  for (int i = 0; i < 3; ++i) {
    int k = sent[i], tag = tag0 + i;
    /* The prefix, packed: int at 0, double at 4, int at 12, double at 16. */
    MPI_Aint pdisps[4] = {0, 4, 12, 16};
    MPI_Datatype prefix;
    CHECK_MPI(MPI_Type_create_struct(k, blens, pdisps, types, &prefix));
    CHECK_MPI(MPI_Type_commit(&prefix));
    unsigned char out[24];
    dense_write(&c, out, k, rank, peer, tag);
    layout_buf rbuf = layout_alloc(&c, 3, SENTINEL);
    MPI_Request req;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(rbuf.origin, 3, c.type, peer, tag, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Send(out, 1, prefix, peer, tag, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    check_status(&st, peer, tag, c.type, k % 2 == 0 ? k / 2 : MPI_UNDEFINED, k, c.name, __LINE__);
    layout_check(&c, &rbuf, k, SENTINEL, peer, rank, tag, "partial message", __LINE__);
    free(rbuf.raw);
    CHECK_MPI(MPI_Type_free(&prefix));
  }
  free_case(&c);
}

/* ---- Truncation (MPI-4.0 3.2.4) --------------------------------------------------------------------------------- */

/* count elements of a case are sent and count - 1 received: MPI_ERR_TRUNCATE (MPI_ERRORS_RETURN is set). Only the
 * typemap positions of the receive buffer may be written: every other byte (gaps, guards, and the space where the
 * missing element would go) keeps the sentinel. A follow-up message must still arrive. */
static void exchange_truncated(const dt_case *c, int peer, int tag, int blocking) {
  long nvalues = (long)c->count * c->n, room = (long)(c->count - 1) * c->n;
  layout_buf sbuf = layout_alloc(c, c->count, SEND_FILL), rbuf = layout_alloc(c, c->count, SENTINEL);
  layout_write(c, sbuf.origin, nvalues, rank, peer, tag);
  MPI_Request req;
  MPI_Status st;
  int err, cls = -1;
  if (blocking) {
    CHECK_MPI(MPI_Isend(sbuf.origin, c->count, c->type, peer, tag, MPI_COMM_WORLD, &req));
    err = MPI_Recv(rbuf.origin, c->count - 1, c->type, peer, tag, MPI_COMM_WORLD, &st);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Irecv(rbuf.origin, c->count - 1, c->type, peer, tag, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Send(sbuf.origin, c->count, c->type, peer, tag, MPI_COMM_WORLD));
    err = MPI_Wait(&req, &st);
  }
  if (err != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(err, &cls));
  if (cls != MPI_ERR_TRUNCATE) {
    char detail[200];
    snprintf(detail, sizeof detail, ": %s, %s: returned %d, class %d", c->name, blocking ? "Recv" : "Irecv + Wait", err,
             cls);
    test_fail(__FILE__, __LINE__, "truncated derived-type receive must give MPI_ERR_TRUNCATE", detail);
  }
  /* The content of the count - 1 elements' typemap positions is not checked after an overflow; every other byte
   * must still hold the sentinel (copy the positions' bytes into the expected image, then compare everything). */
  unsigned char *want = test_malloc(rbuf.bytes);
  memset(want, SENTINEL, rbuf.bytes);
  for (long k = 0; k < room; ++k) {
    MPI_Aint off = entry_offset(c, k);
    size_t sz = basic_size(c->map[k % c->n].type);
    memcpy(want + (rbuf.origin - rbuf.raw) + off, rbuf.origin + off, sz);
  }
  if (memcmp(want, rbuf.raw, rbuf.bytes) != 0) {
    char detail[160];
    snprintf(detail, sizeof detail, ": %s: bytes outside the receive buffer's typemap were written", c->name);
    test_fail(__FILE__, __LINE__, "truncated receive", detail);
  }
  free(want);
  /* The communicator still works. */
  int out = rank * 1000 + tag, in = -1;
  CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, peer, tag, &in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &st));
  CHECK(in == peer * 1000 + tag);
  free(sbuf.raw);
  free(rbuf.raw);
}

/* ---- Driver ----------------------------------------------------------------------------------------------------- */

enum {
  TAG_BOTTOM = 1000,
  TAG_FREED = 1100,
  TAG_PERSIST = 1200,
  TAG_REPLACE = 1300,
  TAG_PARTIAL = 1400,
  TAG_TRUNC = 1500
};

static void run_pair(dt_case *cases, int peer) {
  for (int ci = 0; ci < NCASES; ++ci) exchange_case(&cases[ci], ci, peer);
  exchange_bottom(peer, TAG_BOTTOM);
  exchange_freed_types(CASE_NESTED, peer, TAG_FREED);
  exchange_freed_types(CASE_LARGE_VECTOR, peer, TAG_FREED + 1);
  exchange_freed_types(CASE_LARGE_STRUCT, peer, TAG_FREED + 2);
  exchange_persistent(&cases[CASE_INDEXED], peer, TAG_PERSIST);
  exchange_persistent(&cases[CASE_NESTED], peer, TAG_PERSIST + 1);
  exchange_persistent(&cases[CASE_LARGE_VECTOR], peer, TAG_PERSIST + 2);
  exchange_replace(&cases[CASE_VECTOR], peer, TAG_REPLACE);
  exchange_replace(&cases[CASE_NESTED], peer, TAG_REPLACE + 1);
  exchange_replace(&cases[CASE_LARGE_VECTOR], peer, TAG_REPLACE + 2);
  partial_vector(peer, TAG_PARTIAL);
  partial_struct(peer, TAG_PARTIAL + 10);
  exchange_truncated(&cases[CASE_VECTOR], peer, TAG_TRUNC, 1);
  exchange_truncated(&cases[CASE_VECTOR], peer, TAG_TRUNC + 1, 0);
  exchange_truncated(&cases[CASE_NESTED], peer, TAG_TRUNC + 2, 0);
  exchange_truncated(&cases[CASE_LARGE_VECTOR], peer, TAG_TRUNC + 3, 1);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

  CHECK(builders[CASE_VECTOR] == build_vector && builders[CASE_INDEXED] == build_indexed &&
        builders[CASE_NESTED] == build_nested && builders[CASE_LARGE_VECTOR] == build_large_vector &&
        builders[CASE_LARGE_STRUCT] == build_large_struct);
  dt_case cases[NCASES];
  for (int i = 0; i < NCASES; ++i) cases[i] = make_case(i);

  for (int d = 1; d == 1 || d < size; d *= 2) {
    int peer = (rank ^ d) < size ? (rank ^ d) : rank;
    run_pair(cases, peer);
    test_barrier();
  }

  for (int i = 0; i < NCASES; ++i) free_case(&cases[i]);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
