/*
 * hpio_bulkio: the C reference of the bulk and approaches suites (000 Table 2's C row, 001 §7's native C).
 *
 *   hpio_bulkio read|write FILE ELEM_SIZE(4|8) be|native FIRST COUNT THREADS [--wait]
 *
 * Reads or writes elements FIRST .. FIRST+COUNT-1 of a file of ints or longs with pread/pwrite in 1 MiB
 * chunks, THREADS pthreads each owning one contiguous block. "be" swaps to and from big-endian in bulk (reads
 * land in the array and are swapped in place; writes are swapped into a per-thread buffer); "native" moves
 * the array's memory as it is. The data and checksum are those of TestData.java: element i is splitmix64(i)
 * (low 32 bits for ints), checksum = sum of value * (2i + 1) mod 2^64.
 * With --wait it prints READY and waits for a line on stdin before starting the clock (a start barrier for
 * several processes). Prints "DONE <elapsed ns> <checksum>"; exits non-zero with a message on any error.
 */
#define _GNU_SOURCE
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static int writing, elem, swap, fd;
static char *array;          /* elements FIRST .. FIRST+COUNT-1 */
static int64_t first_index;  /* FIRST */
static const char *path;

struct block { int64_t first; int64_t count; };  /* element indices in the whole file */

static uint64_t value(uint64_t i) {
    uint64_t z = i + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void die(const char *what, int64_t offset) {
    fprintf(stderr, "hpio_bulkio: %s failed on %s at offset %lld: %s\n", what, path, (long long) offset,
            errno ? strerror(errno) : "unexpected end of file");
    exit(2);
}

static void swap_chunk(char *dst, const char *src, size_t bytes) {
    if (elem == 8) {
        const uint64_t *s = (const uint64_t *) src; uint64_t *d = (uint64_t *) dst;
        for (size_t i = 0; i < bytes / 8; i++) d[i] = bswap_64(s[i]);
    } else {
        const uint32_t *s = (const uint32_t *) src; uint32_t *d = (uint32_t *) dst;
        for (size_t i = 0; i < bytes / 4; i++) d[i] = bswap_32(s[i]);
    }
}

static void *run_block(void *arg) {
    struct block *b = arg;
    char *base = array + (b->first - first_index) * elem;
    int64_t bytes = b->count * elem, done = 0;
    off_t at = b->first * (int64_t) elem;
    char *buf = writing && swap ? aligned_alloc(4096, CHUNK) : NULL;
    while (done < bytes) {
        size_t n = bytes - done < CHUNK ? (size_t) (bytes - done) : CHUNK;
        ssize_t r;
        if (writing) {
            const char *src = base + done;
            if (swap) { swap_chunk(buf, src, n); src = buf; }
            r = pwrite(fd, src, n, at + done);
            if (r <= 0) die("pwrite", at + done);
        } else {
            errno = 0;
            r = pread(fd, base + done, n, at + done);
            if (r <= 0) die("pread", at + done);
            if (swap) {
                size_t whole = (size_t) r - (size_t) r % elem;  /* a short read may split an element */
                swap_chunk(base + done, base + done, whole);
                r = (ssize_t) whole;
                if (whole == 0) { errno = 0; die("pread (element split)", at + done); }
            }
        }
        done += r;
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 8) {
        fprintf(stderr, "usage: hpio_bulkio read|write FILE ELEM_SIZE be|native FIRST COUNT THREADS [--wait]\n");
        return 1;
    }
    writing = strcmp(argv[1], "write") == 0;
    path = argv[2];
    elem = atoi(argv[3]);
    swap = strcmp(argv[4], "be") == 0 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    int64_t first = atoll(argv[5]), count = atoll(argv[6]);
    first_index = first;
    int threads = atoi(argv[7]);
    int wait = argc > 8 && strcmp(argv[8], "--wait") == 0;
    if ((elem != 4 && elem != 8) || threads < 1 || count < 0) { fprintf(stderr, "hpio_bulkio: bad arguments\n"); return 1; }

    fd = open(path, writing ? O_WRONLY : O_RDONLY);
    if (fd < 0) die("open", 0);
    size_t bytes = (size_t) count * elem;
    array = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096 + 4096);
    if (!array) { fprintf(stderr, "hpio_bulkio: out of memory\n"); return 2; }
    /* Touch every page before the clock starts, as the JVM's arrays are. */
    for (int64_t i = 0; i < count; i++) {
        uint64_t v = value(first + i);
        if (elem == 8) ((uint64_t *) array)[i] = writing ? v : 0;
        else ((uint32_t *) array)[i] = writing ? (uint32_t) v : 0;
    }
    if (wait) {
        printf("READY\n"); fflush(stdout);
        char line[64];
        if (!fgets(line, sizeof line, stdin)) return 3;
    }

    pthread_t tid[256];
    struct block blocks[256];
    if (threads > 256) threads = 256;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int64_t per = count / threads;
    for (int t = 0; t < threads; t++) {
        blocks[t].first = first + t * per;
        blocks[t].count = t == threads - 1 ? count - t * per : per;
        pthread_create(&tid[t], NULL, run_block, &blocks[t]);
    }
    for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int64_t ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);

    uint64_t sum = 0;
    for (int64_t i = 0; i < count; i++) {
        uint64_t v = elem == 8 ? ((uint64_t *) array)[i] : (uint64_t) (int64_t) (int32_t) ((uint32_t *) array)[i];
        sum += v * (2 * (uint64_t) (first + i) + 1);
    }
    if (close(fd) != 0) die("close", 0);
    printf("DONE %lld %llu\n", (long long) ns, (unsigned long long) sum);
    return 0;
}
