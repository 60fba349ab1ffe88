/* ISO C11 threads (<threads.h>) over POSIX threads, preloaded after the ThreadSanitizer runtime by
 * scripts/tsan.sh.
 *
 * librdkafka as Debian builds it uses glibc's C11 threads (thrd_create, mtx_lock, cnd_wait...),
 * and glibc implements those by calling its internal pthread functions directly, past the
 * pthread_* symbols TSan intercepts: the TSan of GCC 12 then crashes in librdkafka's first thread
 * (a thread it never saw created) and could not see librdkafka's locks anyway. Defining the C11
 * calls here, on the public pthread functions, routes them through TSan's interceptors. glibc's
 * C11 types are its pthread types (thrd_t is pthread_t; mtx_t, cnd_t and once_flag hold a
 * pthread_mutex_t, pthread_cond_t and pthread_once_t), so the objects librdkafka allocates fit.
 *
 * Not part of the extension: a test tool only. */
#define _GNU_SOURCE /* pthread_mutexattr_settype, pthread_mutex_timedlock with -std=c11 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

_Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "glibc's thrd_t is a pthread_t");
_Static_assert(sizeof(mtx_t) >= sizeof(pthread_mutex_t), "glibc's mtx_t holds a pthread_mutex_t");
_Static_assert(sizeof(cnd_t) >= sizeof(pthread_cond_t), "glibc's cnd_t holds a pthread_cond_t");
_Static_assert(sizeof(once_flag) >= sizeof(pthread_once_t), "glibc's once_flag holds a pthread_once_t");

static int result(int err) {
    return err == 0 ? thrd_success : err == ETIMEDOUT ? thrd_timedout : err == EBUSY ? thrd_busy
         : err == ENOMEM ? thrd_nomem : thrd_error;
}

typedef struct {
    thrd_start_t func;
    void *arg;
} Start;

static void *trampoline(void *p) {
    Start s = *(Start *)p;
    free(p);
    return (void *)(intptr_t)s.func(s.arg);
}

int thrd_create(thrd_t *thr, thrd_start_t func, void *arg) {
    Start *s = malloc(sizeof(*s));
    if (s == NULL)
        return thrd_nomem;
    s->func = func;
    s->arg = arg;
    int err = pthread_create((pthread_t *)thr, NULL, trampoline, s);
    if (err != 0)
        free(s);
    return result(err);
}

int thrd_join(thrd_t thr, int *res) {
    void *ret;
    int err = pthread_join((pthread_t)thr, &ret);
    if (err == 0 && res != NULL)
        *res = (int)(intptr_t)ret;
    return result(err);
}

int thrd_detach(thrd_t thr) { return result(pthread_detach((pthread_t)thr)); }

thrd_t thrd_current(void) { return (thrd_t)pthread_self(); }

int mtx_init(mtx_t *m, int type) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    if (type & mtx_recursive)
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    int err = pthread_mutex_init((pthread_mutex_t *)m, &attr);
    pthread_mutexattr_destroy(&attr);
    return result(err);
}

int mtx_lock(mtx_t *m) { return result(pthread_mutex_lock((pthread_mutex_t *)m)); }

int mtx_trylock(mtx_t *m) { return result(pthread_mutex_trylock((pthread_mutex_t *)m)); }

int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict ts) {
    return result(pthread_mutex_timedlock((pthread_mutex_t *)m, ts));
}

int mtx_unlock(mtx_t *m) { return result(pthread_mutex_unlock((pthread_mutex_t *)m)); }

void mtx_destroy(mtx_t *m) { pthread_mutex_destroy((pthread_mutex_t *)m); }

int cnd_init(cnd_t *c) { return result(pthread_cond_init((pthread_cond_t *)c, NULL)); }

int cnd_signal(cnd_t *c) { return result(pthread_cond_signal((pthread_cond_t *)c)); }

int cnd_broadcast(cnd_t *c) { return result(pthread_cond_broadcast((pthread_cond_t *)c)); }

int cnd_wait(cnd_t *c, mtx_t *m) { return result(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m)); }

int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict ts) {
    return result(pthread_cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, ts));
}

void cnd_destroy(cnd_t *c) { pthread_cond_destroy((pthread_cond_t *)c); }

void call_once(once_flag *flag, void (*func)(void)) { pthread_once((pthread_once_t *)flag, func); }
