// pr: T threads each doing blocking 4 KiB O_DIRECT preads at random offsets for secs; prints IOPS
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static int fd; static long blocks; static double end; static _Atomic long total;
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
static void*w(void*a){char*b;posix_memalign((void**)&b,4096,4096);unsigned s=(unsigned)(long)a*7919+1;long n=0;
  while(now()<end){s=s*1103515245u+12345u;unsigned long r=((unsigned long)s<<16)^(unsigned long)rand_r(&s);if(pread(fd,b,4096,(off_t)(r%blocks)*4096)!=4096){perror("pread");break;}n++;}
  total+=n;return 0;}
int main(int c,char**v){fd=open(v[1],O_RDONLY|O_DIRECT);blocks=lseek(fd,0,SEEK_END)/4096;int T=atoi(v[2]);double secs=atof(v[3]);
  double t0=now();end=t0+secs;pthread_t*th=malloc(T*sizeof*th);for(long i=0;i<T;i++)pthread_create(&th[i],0,w,(void*)i);for(int i=0;i<T;i++)pthread_join(th[i],0);
  printf("preads %d iops %.0f\n",T,total/(now()-t0));return 0;}
