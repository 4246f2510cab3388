// ord: keeps D 4 KiB O_DIRECT random reads in flight with one io_uring; mode 0 random order, 1 each refill batch sorted by offset
#define _GNU_SOURCE
#include <linux/io_uring.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <stdatomic.h>
static int setup(unsigned e, struct io_uring_params *p){return syscall(__NR_io_uring_setup,e,p);}
static int enter(int fd,unsigned s,unsigned m,unsigned f){return syscall(__NR_io_uring_enter,fd,s,m,f,NULL,0);}
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
static int cmp(const void*a,const void*b){long long x=*(long long*)a,y=*(long long*)b;return x<y?-1:x>y;}
#include <pthread.h>
static const char*path; static int D,mode; static double delayus; static double secs; static _Atomic long total;
static void*worker(void*arg){
  int fd=open(path,O_RDONLY|O_DIRECT); off_t size=lseek(fd,0,SEEK_END); long blocks=size/4096;
  struct io_uring_params p; memset(&p,0,sizeof p);
  int rfd=setup(1024,&p); if(rfd<0){perror("setup");return 0;}
  size_t sqsz=p.sq_off.array+p.sq_entries*4, cqsz=p.cq_off.cqes+p.cq_entries*sizeof(struct io_uring_cqe);
  char*sq=mmap(0,sqsz,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_POPULATE,rfd,IORING_OFF_SQ_RING);
  char*cq=mmap(0,cqsz,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_POPULATE,rfd,IORING_OFF_CQ_RING);
  struct io_uring_sqe*sqes=mmap(0,p.sq_entries*sizeof(struct io_uring_sqe),PROT_READ|PROT_WRITE,MAP_SHARED|MAP_POPULATE,rfd,IORING_OFF_SQES);
  unsigned*sqtail=(unsigned*)(sq+p.sq_off.tail),*sqmask=(unsigned*)(sq+p.sq_off.ring_mask),*sqarr=(unsigned*)(sq+p.sq_off.array);
  unsigned*cqhead=(unsigned*)(cq+p.cq_off.head),*cqtail=(unsigned*)(cq+p.cq_off.tail),*cqmask=(unsigned*)(cq+p.cq_off.ring_mask);
  struct io_uring_cqe*cqes=(struct io_uring_cqe*)(cq+p.cq_off.cqes);
  char*buf; posix_memalign((void**)&buf,4096,(size_t)D*4096);
  int*freeslots=malloc(D*sizeof(int)); int nfree=0; for(int i=0;i<D;i++)freeslots[nfree++]=i;
  long long*offs=malloc(D*sizeof(long long));
  unsigned seed=12345+(unsigned)(long)&fd; long done=0; double t0=now(),end=t0+secs; long sortedpairs=0,pairs=0; long long last=-1;
  int first=1;
  while(1){
    if(!first&&delayus>0){double u=now()+delayus/1e6; while(now()<u);} first=0;
    int n=nfree;
    for(int i=0;i<n;i++){seed=seed*1103515245u+12345u; unsigned long r=((unsigned long)seed<<16)^(unsigned long)rand(); offs[i]=(long long)(r%blocks)*4096;}
    if(mode==1) qsort(offs,n,sizeof(long long),cmp);
    unsigned tail=*sqtail;
    for(int i=0;i<n;i++){int s=freeslots[--nfree]; unsigned idx=tail&*sqmask; struct io_uring_sqe*e=&sqes[idx]; memset(e,0,sizeof *e);
      e->opcode=IORING_OP_READ; e->fd=fd; e->addr=(unsigned long)(buf+(size_t)s*4096); e->len=4096; e->off=offs[i]; e->user_data=s; sqarr[idx]=idx; tail++;
      if(last>=0){pairs++; if(offs[i]>last)sortedpairs++;} last=offs[i];}
    atomic_store_explicit((_Atomic unsigned*)sqtail,tail,memory_order_release);
    if(now()>end)break;
    int r=enter(rfd,n,1,IORING_ENTER_GETEVENTS); if(r<0){perror("enter");return 0;}
    unsigned h=*cqhead,t=atomic_load_explicit((_Atomic unsigned*)cqtail,memory_order_acquire);
    while(h!=t){struct io_uring_cqe*c=&cqes[h&*cqmask]; if(c->res!=4096){fprintf(stderr,"res %d\n",c->res);return 0;} freeslots[nfree++]=(int)c->user_data; done++; h++;}
    atomic_store_explicit((_Atomic unsigned*)cqhead,h,memory_order_release);
  }
  total+=done; return 0;
}
int main(int argc,char**argv){
  path=argv[1]; D=atoi(argv[2]); mode=atoi(argv[3]); secs=atof(argv[4]); int T=argc>5?atoi(argv[5]):1; delayus=argc>6?atof(argv[6]):0;
  pthread_t th[16]; double t0=now();
  for(int i=0;i<T;i++)pthread_create(&th[i],0,worker,0);
  for(int i=0;i<T;i++)pthread_join(th[i],0);
  printf("threads %d depth %d iops %.0f\n",T,D,total/(now()-t0));
  return 0;
}
