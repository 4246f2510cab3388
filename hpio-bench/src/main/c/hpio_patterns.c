/*
 * hpio_patterns: the C column of 004's tuning study (the slides' "C" lines).
 *
 *   hpio_patterns read|write seq|random FILE FILE_SIZE OP_SIZE BUFFER_SIZE OPS SEED
 *
 * Performs OPS operations of OP_SIZE bytes on FILE (which exists with FILE_SIZE bytes). BUFFER_SIZE 0: each
 * operation is one read/write (sequential) or pread/pwrite (random). BUFFER_SIZE > 0 (OP_SIZE must be 1): a
 * hand-rolled window of BUFFER_SIZE bytes aligned to its size, refilled with pread and written back with pwrite
 * when an operation falls outside it (random writes read the window first; sequential writes only write what
 * they filled). Operation k is at k * OP_SIZE (seq) or (splitmix64(SEED + k) mod (FILE_SIZE / OP_SIZE)) * OP_SIZE
 * (random), as PatternsSuite's Point. Writes copy from the generator's file contents (big-endian splitmix64(i)),
 * made before the clock starts. Reads fold what they read as Fold.java: operations of 8 bytes or more add
 * value * (2 * long_index + 1) per big-endian long, smaller ones (byte) * (2 * position + 1) per byte, mod 2^64.
 * Prints "DONE <elapsed ns> <checksum>"; exits non-zero with a message on any error.
 */
#define _GNU_SOURCE
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *path;

static uint64_t value(uint64_t i) {
    uint64_t z = i + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int64_t now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what, int64_t offset) {
    fprintf(stderr, "hpio_patterns: %s failed on %s at offset %lld: %s\n", what, path, (long long) offset,
            errno ? strerror(errno) : "unexpected end of file");
    exit(2);
}

static void full_pread(int fd, char *buf, size_t n, int64_t pos, int positional) {
    for (size_t got = 0; got < n; ) {
        errno = 0;
        ssize_t r = positional ? pread(fd, buf + got, n - got, pos + (int64_t) got) : read(fd, buf + got, n - got);
        if (r <= 0) die("read", pos + (int64_t) got);
        got += (size_t) r;
    }
}

static void full_pwrite(int fd, const char *buf, size_t n, int64_t pos, int positional) {
    for (size_t put = 0; put < n; ) {
        errno = 0;
        ssize_t w = positional ? pwrite(fd, buf + put, n - put, pos + (int64_t) put) : write(fd, buf + put, n - put);
        if (w <= 0) die("write", pos + (int64_t) put);
        put += (size_t) w;
    }
}

static uint64_t fold(const unsigned char *data, int64_t n, int64_t pos) {
    uint64_t sum = 0;
    if (n >= 8) {
        uint64_t index = (uint64_t) pos / 8;
        for (int64_t i = 0; i < n; i += 8) {
            uint64_t v;
            memcpy(&v, data + i, 8);
            sum += bswap_64(v) * (2 * index++ + 1);
        }
    } else {
        for (int64_t i = 0; i < n; i++) sum += (uint64_t) data[i] * (2 * (uint64_t) (pos + i) + 1);
    }
    return sum;
}

int main(int argc, char **argv) {
    if (argc != 9) {
        fprintf(stderr, "usage: hpio_patterns read|write seq|random FILE FILE_SIZE OP_SIZE BUFFER_SIZE OPS SEED\n");
        return 1;
    }
    int writing = strcmp(argv[1], "write") == 0, random_access = strcmp(argv[2], "random") == 0;
    path = argv[3];
    int64_t file_size = atoll(argv[4]), op = atoll(argv[5]), bufsize = atoll(argv[6]), ops = atoll(argv[7]);
    uint64_t seed = strtoull(argv[8], NULL, 10);
    if (op < 1 || file_size < op || ops < 1 || bufsize < 0 || (bufsize > 0 && op != 1)) {
        fprintf(stderr, "hpio_patterns: bad sizes: file %s op %s buffer %s ops %s\n", argv[4], argv[5], argv[6], argv[7]);
        return 1;
    }
    unsigned char *source = NULL;
    if (writing) {
        source = malloc((size_t) file_size + 8);
        if (!source) { fprintf(stderr, "hpio_patterns: out of memory\n"); return 2; }
        for (int64_t i = 0; i < file_size / 8; i++) { uint64_t v = bswap_64(value((uint64_t) i)); memcpy(source + i * 8, &v, 8); }
    }
    size_t bytes = (size_t) (bufsize > 0 ? bufsize : op);
    unsigned char *buffer = malloc(bytes);
    if (!buffer) { fprintf(stderr, "hpio_patterns: out of memory\n"); return 2; }
    int fd = open(path, writing ? O_RDWR : O_RDONLY);
    if (fd < 0) die("open", 0);
    uint64_t slots = (uint64_t) (file_size / op), sum = 0;
    int64_t start = now();
    int64_t wstart = 0, wlen = 0, filled = 0;
    int overwrite = writing && !random_access;
    for (int64_t k = 0; k < ops; k++) {
        int64_t pos = random_access ? (int64_t) (value(seed + (uint64_t) k) % slots) * op : k * op;
        if (bufsize == 0) {
            if (writing) full_pwrite(fd, (const char *) source + pos, (size_t) op, pos, random_access);
            else { full_pread(fd, (char *) buffer, (size_t) op, pos, random_access); sum += fold(buffer, op, pos); }
            continue;
        }
        if (pos < wstart || pos >= wstart + wlen) {
            if (filled > 0) { full_pwrite(fd, (const char *) buffer, (size_t) (overwrite ? filled : wlen), wstart, 1); filled = 0; }
            wstart = pos - pos % bufsize;
            wlen = file_size - wstart < bufsize ? file_size - wstart : bufsize;
            if (!overwrite) full_pread(fd, (char *) buffer, (size_t) wlen, wstart, 1);
        }
        int64_t i = pos - wstart;
        if (writing) { buffer[i] = source[pos]; if (i + 1 > filled) filled = i + 1; }
        else sum += (uint64_t) buffer[i] * (2 * (uint64_t) pos + 1);
    }
    if (filled > 0) full_pwrite(fd, (const char *) buffer, (size_t) (overwrite ? filled : wlen), wstart, 1);
    if (close(fd) != 0) die("close", 0);
    printf("DONE %lld %llu\n", (long long) (now() - start), (unsigned long long) sum);
    return 0;
}
