/*
 * hpio_sort: the C row of 000 Table 2 -- the initial pass of an external merge sort, bulk synchronous:
 * read a chunk, sort it, write it, until the input is done (a last partial chunk is sorted on its own).
 *
 *   hpio_sort IN OUT CHUNK_LONGS [--direct]
 *
 * IN holds big-endian 64-bit signed integers (what Java's DataOutputStream writes); OUT is created (it must
 * not exist) and gets each chunk sorted ascending, big-endian. Reads and writes are read(2)/write(2) of whole
 * chunks into one buffer; the byte swaps to and from native order are counted as read and write time, as the
 * Java bulk classes do them inside readArray/writeArray. The sort is a plain quicksort (median of three,
 * insertion sort below 16 elements), as the paper's "standard O(n log n) quicksort". --direct opens both
 * files with O_DIRECT and uses a 4096-aligned buffer (chunk and file sizes must then be multiples of 4096).
 * Prints "DONE <total ns> <read ns> <write ns> <sort ns>" (total from before the opens to after the closes);
 * exits non-zero with a message naming the file and offset on any error.
 */
#define _GNU_SOURCE
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int64_t now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what, const char *file, int64_t offset) {
    fprintf(stderr, "hpio_sort: %s failed on %s at offset %lld: %s\n", what, file, (long long) offset,
            errno ? strerror(errno) : "unexpected end of file");
    exit(2);
}

static void insertion(int64_t *a, int64_t n) {
    for (int64_t i = 1; i < n; i++) {
        int64_t v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void quicksort(int64_t *a, int64_t n) {
    while (n > 16) {
        int64_t *m = a + n / 2, *z = a + n - 1, t;
        if (*m < *a) { t = *m; *m = *a; *a = t; }
        if (*z < *a) { t = *z; *z = *a; *a = t; }
        if (*z < *m) { t = *z; *z = *m; *m = t; }
        int64_t pivot = *m, i = 0, j = n - 1;
        for (;;) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i >= j) break;
            t = a[i]; a[i] = a[j]; a[j] = t;
            i++; j--;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse on the smaller part, loop on the larger */
        if (j + 1 < n - j - 1) { quicksort(a, j + 1); a += j + 1; n -= j + 1; }
        else { quicksort(a + j + 1, n - j - 1); n = j + 1; }
    }
    insertion(a, n);
}

static void swap_all(int64_t *a, int64_t n) {
    for (int64_t i = 0; i < n; i++) a[i] = (int64_t) bswap_64((uint64_t) a[i]);
}

int main(int argc, char **argv) {
    if (argc < 4 || (argc == 5 && strcmp(argv[4], "--direct") != 0) || argc > 5) {
        fprintf(stderr, "usage: hpio_sort IN OUT CHUNK_LONGS [--direct]\n");
        return 1;
    }
    const char *in = argv[1], *out = argv[2];
    int64_t chunk = atoll(argv[3]);
    int direct = argc == 5 ? O_DIRECT : 0;
    if (chunk < 1) { fprintf(stderr, "hpio_sort: CHUNK_LONGS must be positive: %s\n", argv[3]); return 1; }
    int64_t *buffer;
    if (posix_memalign((void **) &buffer, 4096, (size_t) chunk * 8) != 0) {
        fprintf(stderr, "hpio_sort: cannot allocate %lld longs\n", (long long) chunk);
        return 2;
    }
    int64_t start = now(), read_ns = 0, write_ns = 0, sort_ns = 0;
    int fin = open(in, O_RDONLY | direct);
    if (fin < 0) die("open", in, 0);
    int fout = open(out, O_WRONLY | O_CREAT | O_EXCL | direct, 0644);
    if (fout < 0) die("open", out, 0);
    struct stat st;
    if (fstat(fin, &st) != 0) die("fstat", in, 0);
    int64_t total = st.st_size / 8;
    for (int64_t done = 0; done < total; ) {
        int64_t n = total - done < chunk ? total - done : chunk;
        int64_t t0 = now();
        for (size_t got = 0; got < (size_t) n * 8; ) {
            errno = 0;
            ssize_t r = read(fin, (char *) buffer + got, (size_t) n * 8 - got);
            if (r <= 0) die("read", in, done * 8 + (int64_t) got);
            got += (size_t) r;
        }
        swap_all(buffer, n);
        int64_t t1 = now();
        quicksort(buffer, n);
        int64_t t2 = now();
        swap_all(buffer, n);
        for (size_t put = 0; put < (size_t) n * 8; ) {
            errno = 0;
            ssize_t w = write(fout, (char *) buffer + put, (size_t) n * 8 - put);
            if (w <= 0) die("write", out, done * 8 + (int64_t) put);
            put += (size_t) w;
        }
        int64_t t3 = now();
        read_ns += t1 - t0;
        sort_ns += t2 - t1;
        write_ns += t3 - t2;
        done += n;
    }
    int64_t t = now();
    if (close(fout) != 0) die("close", out, total * 8);
    close(fin);
    write_ns += now() - t;
    printf("DONE %lld %lld %lld %lld\n", (long long) (now() - start), (long long) read_ns, (long long) write_ns,
           (long long) sort_ns);
    return 0;
}
