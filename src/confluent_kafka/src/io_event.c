/* What the asyncio layer (confluent_kafka.aio) needs from a client, and nothing more:
 *
 * - a wake-up pipe: librdkafka writes one byte to it when the queue the client serves (the main
 *   queue of a producer, the consumer queue of a consumer, which the main queue is forwarded to)
 *   goes from empty to non-empty. The event loop watches the read end; the Python side drains the
 *   pipe and then serves the queue with the non-blocking poll(0)/consume(n, 0) until it is empty,
 *   since the next wake-up only comes after the queue was empty again.
 * - a private result queue for requests librdkafka can answer asynchronously (synchronous-style
 *   commits): its results wake the same pipe and are collected by _aio_results(), tagged with the
 *   integer token the request was started with.
 *
 * The pipe belongs to the client: it is closed only after librdkafka stopped writing to it
 * (cfl_io_event_teardown, called before rd_kafka_destroy), so a stray write can never reach a
 * descriptor number that was reused.
 *
 * The pipe and the result queue are made on first use, by whichever thread comes first: in a
 * critical section on the client (nothing there blocks or calls Python code). */
#include "handle.h"

#include "error.h"
#include "topic_partition.h"

#ifndef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int set_nonblocking_cloexec(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return -1;
    int fdfl = fcntl(fd, F_GETFD);
    if (fdfl < 0 || fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC) < 0)
        return -1;
    return 0;
}

/* Open the pipe once per client. Returns 0, or -1 with OSError set. In a critical section on h. */
static int io_pipe_open(Handle *h) {
    if (h->io_on)
        return 0;
    int fds[2];
    if (pipe(fds) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    if (set_nonblocking_cloexec(fds[0]) < 0 || set_nonblocking_cloexec(fds[1]) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    h->io_fd[0] = fds[0];
    h->io_fd[1] = fds[1];
    h->io_on = 1;
    return 0;
}

int cfl_io_watch(Handle *h, rd_kafka_queue_t *q) {
    int rc;
    Py_BEGIN_CRITICAL_SECTION(h);
    rc = io_pipe_open(h);
    if (rc == 0)
        rd_kafka_queue_io_event_enable(q, h->io_fd[1], "1", 1);
    Py_END_CRITICAL_SECTION();
    return rc;
}

void cfl_io_wake(Handle *h) {
    /* A full pipe (EAGAIN) already holds a pending wake-up, which is all this asks for. */
    if (h->io_on)
        (void)!write(h->io_fd[1], "1", 1);
}

PyObject *cfl_io_event_fd(Handle *h, PyObject *unused) {
    if (cfl_handle_check(h) < 0)
        return NULL;
    int fd = -1;
    Py_BEGIN_CRITICAL_SECTION(h);
    if (!h->io_on) {
        if (io_pipe_open(h) == 0) {
            /* A consumer serves its consumer queue (the main queue is forwarded there). */
            rd_kafka_queue_t *q = h->rkqu != NULL ? h->rkqu : rd_kafka_queue_get_main(h->rk);
            rd_kafka_queue_io_event_enable(q, h->io_fd[1], "1", 1);
            if (q != h->rkqu)
                rd_kafka_queue_destroy(q);
        }
    }
    if (h->io_on)
        fd = h->io_fd[0];
    Py_END_CRITICAL_SECTION();
    return fd < 0 ? NULL : PyLong_FromLong(fd);
}

rd_kafka_queue_t *cfl_aio_queue(Handle *h) {
    rd_kafka_queue_t *q = CFL_LOAD_PTR(&h->aio_q);
    if (q != NULL)
        return q;
    q = rd_kafka_queue_new(h->rk);
    if (cfl_io_watch(h, q) < 0) {
        rd_kafka_queue_destroy(q);
        return NULL;
    }
    if (!CFL_PUBLISH_PTR(&h->aio_q, q)) {
        /* Another thread's queue got there first (ours woke the pipe for nothing). */
        rd_kafka_queue_destroy(q);
        q = CFL_LOAD_PTR(&h->aio_q);
    }
    return q;
}

void cfl_io_event_teardown(Handle *h, int inherited) {
    if (!inherited && h->rk != NULL) {
        if (h->io_on) {
            rd_kafka_queue_t *q = h->rkqu != NULL ? h->rkqu : rd_kafka_queue_get_main(h->rk);
            rd_kafka_queue_io_event_enable(q, -1, NULL, 0);
            if (q != h->rkqu)
                rd_kafka_queue_destroy(q);
        }
        if (h->aio_q != NULL)
            rd_kafka_queue_destroy(h->aio_q);
        if (h->close_q != NULL)
            rd_kafka_queue_destroy(h->close_q);
    }
    h->aio_q = h->close_q = NULL;
    if (h->io_on) {
        close(h->io_fd[0]);
        close(h->io_fd[1]);
        h->io_on = 0;
    }
}

#else /* _WIN32: the asyncio layer needs a pipe the selector can watch */

int cfl_io_watch(Handle *h, rd_kafka_queue_t *q) {
    PyErr_SetString(PyExc_NotImplementedError, "confluent_kafka.aio is not available on Windows");
    return -1;
}

PyObject *cfl_io_event_fd(Handle *h, PyObject *unused) {
    PyErr_SetString(PyExc_NotImplementedError, "confluent_kafka.aio is not available on Windows");
    return NULL;
}

void cfl_io_wake(Handle *h) {}

rd_kafka_queue_t *cfl_aio_queue(Handle *h) {
    PyErr_SetString(PyExc_NotImplementedError, "confluent_kafka.aio is not available on Windows");
    return NULL;
}

void cfl_io_event_teardown(Handle *h, int inherited) {
    if (!inherited && h->rk != NULL) {
        if (h->aio_q != NULL)
            rd_kafka_queue_destroy(h->aio_q);
        if (h->close_q != NULL)
            rd_kafka_queue_destroy(h->close_q);
    }
    h->aio_q = h->close_q = NULL;
}
#endif

/* One finished request as (token, result, exception): exactly one of the last two is None. */
static PyObject *result_tuple(cfl_state *st, rd_kafka_event_t *ev) {
    PyObject *token = PyLong_FromVoidPtr(rd_kafka_event_opaque(ev));
    if (token == NULL)
        return NULL;
    PyObject *value = NULL, *exc = NULL;
    rd_kafka_resp_err_t err = rd_kafka_event_error(ev);
    if (err) {
        PyObject *kerr = cfl_error_new(st, err, rd_kafka_event_error_string(ev));
        exc = kerr ? PyObject_CallOneArg(st->KafkaException, kerr) : NULL;
        Py_XDECREF(kerr);
    } else if (rd_kafka_event_type(ev) == RD_KAFKA_EVENT_OFFSET_COMMIT) {
        value = cfl_tp_list_from_c(st, rd_kafka_event_topic_partition_list(ev));
    } else {
        value = Py_NewRef(Py_None);
    }
    PyObject *t = (value || exc) ? PyTuple_Pack(3, token, value ? value : Py_None, exc ? exc : Py_None) : NULL;
    Py_DECREF(token);
    Py_XDECREF(value);
    Py_XDECREF(exc);
    return t;
}

PyObject *cfl_aio_results(Handle *h, PyObject *unused) {
    if (cfl_handle_check(h) < 0)
        return NULL;
    PyObject *out = PyList_New(0);
    rd_kafka_queue_t *q = CFL_LOAD_PTR(&h->aio_q);
    if (out == NULL || q == NULL)
        return out;
    rd_kafka_event_t *ev;
    while ((ev = rd_kafka_queue_poll(q, 0)) != NULL) {
        PyObject *t = result_tuple(h->st, ev);
        rd_kafka_event_destroy(ev);
        if (t == NULL || PyList_Append(out, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(t);
    }
    return out;
}
