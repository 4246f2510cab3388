// pp: two threads ping-pong through futexes (cross-CPU wake-ups) for S seconds; prints round trips/s
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static _Atomic int turn; static volatile int stop; static long trips;
static void fw(int v){syscall(SYS_futex,&turn,FUTEX_WAIT_PRIVATE,v,0,0,0);} static void fk(){syscall(SYS_futex,&turn,FUTEX_WAKE_PRIVATE,1,0,0,0);}
static void*side(void*a){int me=(long)a;while(!stop){int t=atomic_load(&turn);if(t==me){atomic_store(&turn,1-me);fk();if(me==0)trips++;}else fw(t);}return 0;}
int main(int c,char**v){double s=atof(v[1]);pthread_t a,b;pthread_create(&a,0,side,(void*)0);pthread_create(&b,0,side,(void*)1);usleep(s*1e6);stop=1;atomic_store(&turn,0);fk();atomic_store(&turn,1);fk();printf("trips/s %.0f\n",trips/s);return 0;}
