/* pack_vector: throughput of MPI_Pack and MPI_Unpack of a strided vector of doubles (and of an indexed type of
 * single doubles), the copy a library makes to send or receive a noncontiguous buffer through a contiguous one, in
 * portable MPI C on one rank.
 *
 *   pack_vector [max_bytes [batches]]         defaults: 16 MiB, 7 batches
 *
 * Three shapes of n doubles (8 n packed bytes), named in the output:
 *   blk1-str2  MPI_Type_vector(n, 1, 2, MPI_DOUBLE)       every other double: one 8-byte piece per block
 *   blk4-str8  MPI_Type_vector(n / 4, 4, 8, MPI_DOUBLE)   blocks of 4 doubles (32 bytes), one block every 8 doubles
 *   idx1-irr3  MPI_Type_create_indexed_block(n, 1, d, MPI_DOUBLE), d[i] = 3 i + i % 3: double i of each group of
 *              3 at no fixed stride, so no vector describes it (blocks 8, 16 and 8 bytes where two touch); MPICH's
 *              test/mpi/perf/indexperf times this type
 * For each shape and packed size 1 KiB, 4 KiB, 16 KiB, ... max_bytes (powers of 4) it builds and commits the type
 * once and packs into a buffer of MPI_Pack_size bytes. It first checks one MPI_Pack and one MPI_Unpack into a
 * second strided buffer: the unpacked doubles must equal the source and the gaps between them must be untouched
 * (a fast but wrong pack must not produce a number). Then, for MPI_Pack and MPI_Unpack separately, it doubles the
 * calls per batch from 1 until a batch lasts at least 5 ms (these trial batches are the warm-up) and times `batches`
 * batches of calls on the same buffers, so small sizes run from the caches. GB/s is packed bytes (8 n) per second,
 * 1e9 bytes/s; the strided side moves whole cache lines, gaps included, so its memory traffic is twice that. The
 * figures printed are the medians over batches. Output: '#' comment lines, then one
 * "shape bytes pack_GBps unpack_GBps" line per shape and size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPI_Type_vector(n / block, block, stride, MPI_DOUBLE): n doubles in a strided buffer of n / block * stride; with
 * block 0, the indexed type above, in a buffer of 3 n. */
typedef struct {
  const char *name;
  int block, stride;
} Shape;

static const Shape shapes[] = {{"blk1-str2", 1, 2}, {"blk4-str8", 4, 8}, {"idx1-irr3", 0, 3}};

/* Whether double i of the strided buffer belongs to the type. */
static int selected(const Shape *s, long i) { return s->block ? i % s->stride < s->block : i % 3 == i / 3 % 3; }

static long strided_length(const Shape *s, long n) { return s->block ? n / s->block * s->stride : 3 * n; }

static void make_type(const Shape *s, int n, MPI_Datatype *type) {
  if (s->block) {
    MPI_Type_vector(n / s->block, s->block, s->stride, MPI_DOUBLE, type);
  } else {
    int *d = malloc(sizeof(int) * (size_t)n);
    if (!d) MPI_Abort(MPI_COMM_WORLD, 3);
    for (int i = 0; i < n; ++i) d[i] = 3 * i + i % 3;
    MPI_Type_create_indexed_block(n, 1, d, MPI_DOUBLE, type);
    free(d);
  }
  MPI_Type_commit(type);
}
enum { shape_count = sizeof shapes / sizeof shapes[0] };

static const double min_batch_seconds = 0.005;

/* One committed type and the buffers it moves between: MPI_Pack reads `strided_in` into `packed`, MPI_Unpack
 * writes `packed` into `strided_out`. */
typedef struct {
  MPI_Datatype type;
  const double *strided_in;
  double *strided_out;
  char *packed;
  int pack_size;  /* MPI_Pack_size, the size of `packed` */
  int packed_len; /* the bytes one MPI_Pack writes */
} Case;

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double gap_value(long i) { return -1.0 - (double)i; }

/* One pack and one unpack, checked. The source holds distinct small integers (exact in a double) and the target
 * starts with other values everywhere, so a double moved to the wrong place, a missing one and a write into a gap
 * all show. Prints what is wrong and returns 0 on a mismatch. */
static int round_trip_is_right(const Shape *s, Case *c, double *strided_in, long strided_len) {
  for (long i = 0; i < strided_len; ++i) {
    strided_in[i] = (double)i;
    c->strided_out[i] = gap_value(i);
  }
  int packed_end = 0, unpacked_end = 0;
  if (MPI_Pack(strided_in, 1, c->type, c->packed, c->pack_size, &packed_end, MPI_COMM_WORLD) != MPI_SUCCESS ||
      MPI_Unpack(c->packed, packed_end, &unpacked_end, c->strided_out, 1, c->type, MPI_COMM_WORLD) != MPI_SUCCESS) {
    fprintf(stderr, "pack_vector: %s: MPI_Pack or MPI_Unpack failed\n", s->name);
    return 0;
  }
  if (packed_end > c->pack_size || unpacked_end != packed_end) {
    fprintf(stderr, "pack_vector: %s: MPI_Pack wrote %d bytes (MPI_Pack_size %d), MPI_Unpack read %d\n", s->name,
            packed_end, c->pack_size, unpacked_end);
    return 0;
  }
  for (long i = 0; i < strided_len; ++i) {
    const double want = selected(s, i) ? strided_in[i] : gap_value(i);
    if (c->strided_out[i] != want) {
      fprintf(stderr, "pack_vector: %s: unpacked double %ld is %g, expected %g\n", s->name, i, c->strided_out[i],
              want);
      return 0;
    }
  }
  c->packed_len = packed_end;
  return 1;
}

/* Seconds taken by `calls` calls of MPI_Pack (unpack == 0) or MPI_Unpack, each from position 0. */
static double time_calls(const Case *c, int unpack, int calls) {
  const double start = MPI_Wtime();
  for (int i = 0; i < calls; ++i) {
    int position = 0;
    if (unpack)
      MPI_Unpack(c->packed, c->packed_len, &position, c->strided_out, 1, c->type, MPI_COMM_WORLD);
    else
      MPI_Pack(c->strided_in, 1, c->type, c->packed, c->pack_size, &position, MPI_COMM_WORLD);
  }
  return MPI_Wtime() - start;
}

/* Median GB/s of packed bytes over `batches` batches of calls; `batch_rate` has room for them. */
static double median_rate(const Case *c, int unpack, long bytes, int batches, double *batch_rate) {
  int calls = 1;
  while (time_calls(c, unpack, calls) < min_batch_seconds && calls < (1 << 26)) calls *= 2;
  for (int b = 0; b < batches; ++b) batch_rate[b] = (double)bytes * calls / time_calls(c, unpack, calls) / 1e9;
  qsort(batch_rate, (size_t)batches, sizeof(double), compare_doubles);
  return batch_rate[batches / 2];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long max_bytes = argc > 1 ? atol(argv[1]) : 16L << 20;
  int batches = argc > 2 ? atoi(argv[2]) : 7;
  if (max_bytes < 1024 || max_bytes > (1L << 30) || batches < 1 || batches > 1000) {
    fprintf(stderr, "usage: pack_vector [max_bytes (1 KiB .. 1 GiB) [batches (1..1000)]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long max_n = max_bytes / (long)sizeof(double);
  long max_strided_len = 0;
  for (int k = 0; k < shape_count; ++k) {
    const long len = strided_length(&shapes[k], max_n);
    if (len > max_strided_len) max_strided_len = len;
  }
  double *strided_in = malloc(sizeof(double) * (size_t)max_strided_len);
  double *strided_out = malloc(sizeof(double) * (size_t)max_strided_len);
  double *batch_rate = malloc(sizeof(double) * (size_t)batches);
  if (!strided_in || !strided_out || !batch_rate) MPI_Abort(MPI_COMM_WORLD, 3);

  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(library, &len);
  library[strcspn(library, "\n")] = '\0';
  printf("# pack_vector: %s\n", library);
  for (int k = 0; k < shape_count; ++k) {
    if (shapes[k].block == 0) {
      printf("# shape %s: MPI_Type_create_indexed_block(n, 1, d, MPI_DOUBLE), d[i] = 3 i + i %% 3\n", shapes[k].name);
      continue;
    }
    printf("# shape %s: MPI_Type_vector(n", shapes[k].name);
    if (shapes[k].block > 1) printf(" / %d", shapes[k].block);
    printf(", %d, %d, MPI_DOUBLE)\n", shapes[k].block, shapes[k].stride);
  }
  printf("# median of %d batches of >= %g ms; GB/s of packed bytes (8 n)\n# shape bytes pack_GBps unpack_GBps\n",
         batches, min_batch_seconds * 1e3);
  fflush(stdout);

  for (int k = 0; k < shape_count; ++k) {
    const Shape *s = &shapes[k];
    for (long bytes = 1024; bytes <= max_bytes; bytes *= 4) {
      const int n = (int)(bytes / (long)sizeof(double));
      const long strided_len = strided_length(s, n);
      Case c = {.strided_in = strided_in, .strided_out = strided_out};
      make_type(s, n, &c.type);
      MPI_Pack_size(1, c.type, MPI_COMM_WORLD, &c.pack_size);
      c.packed = malloc((size_t)c.pack_size);
      if (!c.packed) MPI_Abort(MPI_COMM_WORLD, 3);
      if (!round_trip_is_right(s, &c, strided_in, strided_len)) {
        fprintf(stderr, "pack_vector: wrong round trip at %s %ld bytes\n", s->name, bytes);
        MPI_Abort(MPI_COMM_WORLD, 4);
      }
      const double pack = median_rate(&c, 0, bytes, batches, batch_rate);
      const double unpack = median_rate(&c, 1, bytes, batches, batch_rate);
      printf("%s %ld %.3f %.3f\n", s->name, bytes, pack, unpack);
      fflush(stdout);
      free(c.packed);
      MPI_Type_free(&c.type);
    }
  }
  free(strided_in);
  free(strided_out);
  free(batch_rate);
  MPI_Finalize();
  return 0;
}
