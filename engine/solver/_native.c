/* The solver's hottest loops in C: the dead-card fixpoint, the ordering
 * probe that reruns it, and the dead-end test, the same functions as
 * ``fixpoint_py`` and ``ordering_probe_py`` in closure.py and
 * ``can_end_phase_py`` in phase.py (beside this file), on machine integers.
 *
 * Together they were about two thirds of the instructions of the mypyc build:
 * passes over the reserve piles and the misplaced cards, reading and writing
 * small integers, where compiled Python unboxes every list item it reads and
 * boxes every one it writes. setup.py builds this module where a C compiler is
 * at hand (it is optional, like the mypyc build); without it the solver runs
 * the Python functions. Both give the same answers for the same arguments: the
 * tests compare them on the positions of real searches
 * (tests/engine/test_solver_build.py). The Python functions are the reference,
 * with the reasoning in docs/solver.md; this file
 * follows them line by line, with two savings of work whose answer is known
 * (the same runs, the same cards in the same order, the same orders learnt):
 * a run of the fixpoint does not ask again a card that could not join, until
 * what stopped it changes (``run``), and the probe does not rerun a pair whose
 * two runs kept every order learnt since it last ran them (``probe``).
 *
 * A ``Tables`` object holds what does not change during a search: each
 * instance's card, row (of a misplaced card) and other copy. It also keeps a
 * converted copy of the last ``arrive``, ``seqs`` and ``soon`` lists it was
 * given, by identity (it holds a reference to them): the solver makes those
 * once per phase start and never changes them afterwards, and calls these
 * functions many times with the same ones. Converting a list of a hundred
 * ints at every call cost more than the loops themselves.
 *
 * Cards are numbered as in engine/cards.py: ``card >> 2`` is the rank less
 * one (0 for an Ace, 1-3 for the bases Two to Four), and ``card + 12`` is the
 * same suit three ranks higher.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define RANK_STEP3 12
#define N_CARDS 52
/* room for this many reserve piles and phases beyond one per instance */
#define EXTRA 64
/* the probe keeps its base run's state at the start of so many phases at most */
#define SNAP_PHASES 32

/* ------------------------------------------------------------------ helpers */

/* How many copies of the card three below c (a 5 or above) can be home together,
 * by the counts hc: no more than of any card under it in its foundation
 * (``below`` in closure.py). */
static inline long
cap_below(const long *hc, long c)
{
    long d = c - RANK_STEP3;
    long m = hc[d];
    for (d -= RANK_STEP3; d >= 4; d -= RANK_STEP3)
        if (hc[d] < m)
            m = hc[d];
    return m;
}

/* The slots (card c of rank 5 up) or spaces (a base) beyond the one it needs,
 * with ``same`` cards before it taking the same resource: below 0 it cannot
 * join yet, above 0 it has one to spare; 0 for an Ace (``spare`` in closure.py). */
static inline long
room_for(const long *hc, const long *cnt, const long *opened, long c, long same)
{
    long rank = c >> 2;
    if (rank == 0)
        return 0;
    if (rank <= 3)
        return opened[rank - 1] - same - 1;
    return cap_below(hc, c) - cnt[c] - same - 1;
}

/* An int object's value: at once for the small ones (every int here is one),
 * through PyLong_AsLong for the others; -1 with an exception set on error. */
static inline long
as_long(PyObject *v)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (PyLong_Check(v) && PyUnstable_Long_IsCompact((PyLongObject *)v))
        return (long)PyUnstable_Long_CompactValue((PyLongObject *)v);
#else
    if (PyLong_Check(v)) {
        Py_ssize_t size = Py_SIZE(v);
        if (size == 0)
            return 0;
        if (size == 1)
            return (long)((PyLongObject *)v)->ob_digit[0];
        if (size == -1)
            return -(long)((PyLongObject *)v)->ob_digit[0];
    }
#endif
    return PyLong_AsLong(v);
}

/* Read a list of ``n`` ints into ``out``; -1 with an exception set on error. */
static int
read_ints(PyObject *list, Py_ssize_t n, long *out, const char *what)
{
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_TypeError, "%s: a list of %zd ints expected", what, n);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = as_long(PyList_GET_ITEM(list, k));
        if (v == -1 && PyErr_Occurred())
            return -1;
        out[k] = v;
    }
    return 0;
}

/* Read a list of lists of instances (below ``n``) into ``out`` (room for
 * ``room``), with each inner list's start and length; -1 on error. */
static int
read_piles(PyObject *list, Py_ssize_t n, Py_ssize_t room, long *out, long *start, long *len,
           const char *what)
{
    Py_ssize_t off = 0;
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(list); j++) {
        PyObject *pile = PyList_GET_ITEM(list, j);
        if (!PyList_Check(pile) || off + PyList_GET_SIZE(pile) > room) {
            PyErr_Format(PyExc_TypeError, "%s: lists of at most %zd instances expected", what, n);
            return -1;
        }
        Py_ssize_t size = PyList_GET_SIZE(pile);
        if (read_ints(pile, size, out + off, what))
            return -1;
        for (Py_ssize_t k = 0; k < size; k++) {
            if (out[off + k] < 0 || out[off + k] >= n) {
                PyErr_Format(PyExc_ValueError, "%s: an instance out of range", what);
                return -1;
            }
        }
        start[j] = (long)off;
        len[j] = (long)size;
        off += size;
    }
    return 0;
}

/* Whether bit ``i`` of a little-endian byte string is set. */
static int
bit(const unsigned char *bytes, Py_ssize_t size, long i)
{
    return i >= 0 && (i >> 3) < size && (bytes[i >> 3] >> (i & 7)) & 1;
}

/* How many of ``pile[pos + 1 : top]`` take the same resource as ``pile[pos]``
 * (``same_above`` in closure.py): the same card for rank 5 up (a slot on its
 * foundation), a base of the same row (a space); 0 for an Ace. */
static long
same_above(const long *card, const long *pile, long pos, long top)
{
    long c = card[pile[pos]];
    long rank = c >> 2;
    long same = 0;
    if (rank >= 4) {
        for (long u = pos + 1; u < top; u++)
            if (card[pile[u]] == c)
                same++;
    }
    else if (rank) {
        for (long u = pos + 1; u < top; u++)
            if ((card[pile[u]] >> 2) == rank)
                same++;
    }
    return same;
}

/* A new list of the ``n`` ints of ``values``. */
static PyObject *
int_list(const long *values, Py_ssize_t n)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *v = PyLong_FromLong(values[k]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, v);
    }
    return list;
}

/* ------------------------------------------------------------------ Tables */

/* The fields of one snapshot slot of the probe (see ``snap_copy``), in their
 * order: the copies home, the rows' spaces, the cards left, the misplaced
 * cards not in (their count, then the cards), each pile's stack length, its
 * cards dealt, the stacks, the cards out after each phase, the flags of the
 * cards in. */
enum { SO_HC, SO_OPENED, SO_LEFT, SO_N_LOOSE, SO_LOOSE, SO_STACK_LEN, SO_DEALT, SO_STACKS,
       SO_BEHIND, SO_INH, SNAP_FIELDS };

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;  /* instances */
    long *card, *row_of, *partner;
    /* the last arrive and seqs lists of fixpoint(), and soon of can_end_phase() */
    PyObject *arrive_obj, *seqs_obj, *soon_obj;
    long *arrive, *soon, *seqs, *seq_start, *seq_len;
    /* for each place k of ``seqs``: the next place up its pile with a card taking
     * the same resource (its pile's length if none); each instance's place in its
     * pile (-1 if in none) */
    long *seq_next, *pos_of;
    Py_ssize_t n_piles;
    /* scratch space for one call */
    long *joined, *first_of, *base, *trace, *trace0, *home, *stacks, *stack_len, *dealt, *loose, *mis_all,
        *behind, *tops, *learnt, *probe_buf;
    /* a run's record of why each pile's top, or each misplaced card, did not join
     * this phase (see ``run``) */
    long *p_kind, *p_res, *p_ver, *l_kind, *l_res, *l_ver;
    long *pairs;  /* the probe's pairs, at most ``max_pairs`` (its own block) */
    Py_ssize_t max_pairs;
    /* for each pair, the two runs that last passed (each card's place in the run's
     * order, see ``probe``) and how many orders had been learnt then */
    long *pair_runs, *pair_asked;
    /* the state at the start of each phase of the run the probe's runs resume
     * from (see ``run``): valid for phase p while ``snap_of[p] == snap_gen``;
     * ``snap_gen`` 0 while no probe runs */
    long *snap, *snap_of, snap_gen, snap_next;
    Py_ssize_t snap_stride, snap_off[SNAP_FIELDS];  /* a slot's size and layout */
    char *inh;
    long *mem;
} Tables;

static void
tables_dealloc(Tables *t)
{
    Py_XDECREF(t->arrive_obj);
    Py_XDECREF(t->seqs_obj);
    Py_XDECREF(t->soon_obj);
    free(t->mem);
    free(t->pairs);
    free(t->pair_runs);
    free(t->snap);
    free(t->inh);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.solver._native.Tables",
    .tp_basicsize = sizeof(Tables),
    .tp_dealloc = (destructor)tables_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A search's constant arrays (each instance's card, row and other copy).",
};

/* tables(card, row_of, partner) */
static PyObject *
make_tables(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "tables(card, row_of, partner): three lists expected");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(args[0]);
    Tables *t = PyObject_New(Tables, &TablesType);
    if (!t)
        return NULL;
    t->n = n;
    t->arrive_obj = t->seqs_obj = t->soon_obj = NULL;
    t->n_piles = 0;
    t->pairs = NULL;
    t->pair_runs = NULL;
    t->snap = NULL;
    t->snap_gen = t->snap_next = 0;
    t->max_pairs = 0;
    /* every list below holds at most n items; piles and phases are at most m each */
    Py_ssize_t m = n + EXTRA;
    size_t longs = 29 * (size_t)n + 11 * (size_t)m;
    t->mem = (long *)calloc(longs, sizeof(long));
    t->inh = (char *)calloc((size_t)n + 1, 1);
    if (!t->mem || !t->inh) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    long *p = t->mem;
    t->card = p; p += n;
    t->row_of = p; p += n;
    t->partner = p; p += n;
    t->arrive = p; p += n;
    t->soon = p; p += n;
    t->seqs = p; p += n;
    t->seq_start = p; p += m;
    t->seq_len = p; p += m;
    t->joined = p; p += n;
    t->first_of = p; p += n;
    t->base = p; p += n;
    t->trace = p; p += n;
    t->trace0 = p; p += n;
    t->home = p; p += n;
    t->stacks = p; p += n;
    t->stack_len = p; p += m;
    t->dealt = p; p += m;
    t->loose = p; p += n;
    t->mis_all = p; p += n;
    t->behind = p; p += m;
    t->tops = p; p += m;
    t->learnt = p; p += n;
    t->probe_buf = p; p += 6 * n;
    t->seq_next = p; p += n;
    t->pos_of = p; p += n;
    t->p_kind = p; p += m;
    t->p_res = p; p += m;
    t->p_ver = p; p += m;
    t->l_kind = p; p += n;
    t->l_res = p; p += n;
    t->l_ver = p; p += n;
    if (read_ints(args[0], n, t->card, "card") || read_ints(args[1], n, t->row_of, "row_of")
        || read_ints(args[2], n, t->partner, "partner")) {
        Py_DECREF(t);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (t->card[k] < 0 || t->card[k] >= N_CARDS || t->row_of[k] < -1 || t->row_of[k] > 2
            || t->partner[k] < -1 || t->partner[k] >= n) {
            PyErr_SetString(PyExc_ValueError, "tables(): a card, row or copy out of range");
            Py_DECREF(t);
            return NULL;
        }
    }
    /* the probe pairs two copies of a card (at most n / 2 pairs) and any two bases
     * of one row */
    Py_ssize_t bases[3] = {0, 0, 0};
    for (Py_ssize_t k = 0; k < n; k++) {
        long r = (t->card[k] >> 2) - 1;
        if (r >= 0 && r <= 2)
            bases[r]++;
    }
    t->max_pairs = n / 2;
    for (int r = 0; r < 3; r++)
        t->max_pairs += bases[r] * (bases[r] - 1) / 2;
    t->pairs = (long *)malloc(2 * (size_t)t->max_pairs * sizeof(long) + 1);
    t->pair_runs = (long *)malloc((2 * (size_t)n + 1) * (size_t)t->max_pairs * sizeof(long) + 1);
    if (t->pair_runs)
        t->pair_asked = t->pair_runs + 2 * n * t->max_pairs;
    /* a snapshot slot holds each field at its largest (piles and phases at most m) */
    Py_ssize_t field_longs[SNAP_FIELDS] = {
        N_CARDS, 3, 1, 1, n, m, m, n, m, (n + (Py_ssize_t)sizeof(long)) / (Py_ssize_t)sizeof(long)};
    t->snap_stride = 0;
    for (int f = 0; f < SNAP_FIELDS; f++) {
        t->snap_off[f] = t->snap_stride;
        t->snap_stride += field_longs[f];
    }
    if (!t->pairs || !t->pair_runs) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    return (PyObject *)t;
}

/* Keep ``obj`` as the list last converted into ``*slot``'s array. */
static void
remember(PyObject **slot, PyObject *obj)
{
    Py_INCREF(obj);
    Py_XSETREF(*slot, obj);
}

/* The misplaced cards of the three rows into ``t->mis_all`` (their count, or -1
 * on error), and ``swap_ok[a][r]``: row a has a misplaced base of row r. */
static Py_ssize_t
read_misplaced(Tables *t, PyObject *mis, int swap_ok[3][3])
{
    memset(swap_ok, 0, 9 * sizeof(int));
    if (!PyList_Check(mis) || PyList_GET_SIZE(mis) != 3) {
        PyErr_SetString(PyExc_TypeError, "mis: three lists expected");
        return -1;
    }
    Py_ssize_t m = 0;
    for (int a = 0; a < 3; a++) {
        PyObject *row = PyList_GET_ITEM(mis, a);
        if (!PyList_Check(row) || m + PyList_GET_SIZE(row) > t->n) {
            PyErr_SetString(PyExc_TypeError, "mis: lists of instances expected");
            return -1;
        }
        Py_ssize_t len = PyList_GET_SIZE(row);
        if (read_ints(row, len, t->mis_all + m, "mis"))
            return -1;
        for (Py_ssize_t k = 0; k < len; k++) {
            long i = t->mis_all[m + k];
            if (i < 0 || i >= t->n || t->row_of[i] != a) {
                PyErr_SetString(PyExc_ValueError, "mis: a misplaced card out of range");
                return -1;
            }
            long r = (t->card[i] >> 2) - 1;
            if (r >= 0 && r <= 2 && r != a)
                swap_ok[a][r] = 1;
        }
        m += len;
    }
    return m;
}

/* The Tables of a call of ``name`` that takes ``want`` arguments, the first a
 * Tables object; NULL with a TypeError set if the call is not so. */
static Tables *
tables_of(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, const char *name)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments", name, want);
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &TablesType)) {
        PyErr_Format(PyExc_TypeError, "%s(): the first argument must be a Tables object", name);
        return NULL;
    }
    return (Tables *)args[0];
}

/* ---------------------------------------------------------------- fixpoint */

/* What every run of the fixpoint on one position reads besides the Tables
 * (each instance's home flag is in ``Tables.home``, the misplaced cards in
 * ``Tables.mis_all``). */
typedef struct {
    long cnt[N_CARDS], sp[3], fill_by[3];
    int swap_ok[3][3];
    Py_ssize_t n_mis;
    long deals, last;
} Position;

/* ``t->seq_next`` and ``t->pos_of`` for the piles just read into ``t->seqs``: what
 * ``same_above`` and the search for a card's other copy above it read in ``run``. */
static void
index_piles(Tables *t)
{
    const long *card = t->card;
    for (Py_ssize_t k = 0; k < t->n; k++)
        t->pos_of[k] = -1;
    for (Py_ssize_t j = 0; j < t->n_piles; j++) {
        const long *seq = t->seqs + t->seq_start[j];
        long *next = t->seq_next + t->seq_start[j];
        long len = t->seq_len[j];
        for (long k = 0; k < len; k++) {
            long c = card[seq[k]], rank = c >> 2, u = k + 1;
            t->pos_of[seq[k]] = k;
            if (rank >= 4)
                while (u < len && card[seq[u]] != c)
                    u++;
            else if (rank)
                while (u < len && (card[seq[u]] >> 2) != rank)
                    u++;
            else
                u = len;
            next[k] = u;
        }
    }
}

/* ``same_above(card, seq, pos, top)`` for a pile of ``seqs``, by the places
 * ``next`` (``t->seq_next``) of the pile. */
static inline long
same_above_indexed(const long *next, long pos, long top)
{
    long same = 0;
    for (long u = next[pos]; u < top; u = next[u])
        same++;
    return same;
}

/* Read a position's arguments (cnt, home, sp, mis, deals, arrive, seqs, last,
 * fill_by: ``args[0..8]``) into ``q`` and ``t``; -1 with an exception set. */
static int
read_position(Tables *t, PyObject *const *args, Position *q)
{
    PyObject *arrive_l = args[5], *seqs_l = args[6];
    q->deals = PyLong_AsLong(args[4]);
    q->last = PyLong_AsLong(args[7]);
    if (PyErr_Occurred())
        return -1;
    Py_ssize_t n = t->n;
    if (!PyList_Check(seqs_l) || PyList_GET_SIZE(seqs_l) > n + EXTRA || q->last < 0
        || q->last + 1 > n + EXTRA || q->deals < 0) {
        PyErr_SetString(PyExc_TypeError, "fixpoint(): bad arguments");
        return -1;
    }
    if (arrive_l != t->arrive_obj) {
        Py_CLEAR(t->arrive_obj);
        if (read_ints(arrive_l, n, t->arrive, "arrive"))
            return -1;
        remember(&t->arrive_obj, arrive_l);
    }
    if (seqs_l != t->seqs_obj) {
        Py_CLEAR(t->seqs_obj);
        t->n_piles = PyList_GET_SIZE(seqs_l);
        if (read_piles(seqs_l, n, n, t->seqs, t->seq_start, t->seq_len, "seqs"))
            return -1;
        index_piles(t);
        remember(&t->seqs_obj, seqs_l);
    }
    if (read_ints(args[0], N_CARDS, q->cnt, "cnt") || read_ints(args[1], n, t->home, "home")
        || read_ints(args[2], 3, q->sp, "sp") || read_ints(args[8], 3, q->fill_by, "fill_by"))
        return -1;
    q->n_mis = read_misplaced(t, args[3], q->swap_ok);
    return q->n_mis < 0 ? -1 : 0;
}

/* Orders of copies (a dict: a card -> the copy that goes home before it) into
 * ``first_of`` (-1 for none); 1 if there is one, 0 if none, -1 on error. */
static int
read_orders(Tables *t, PyObject *after_d, long *first_of)
{
    if (!PyDict_Check(after_d)) {
        PyErr_SetString(PyExc_TypeError, "fixpoint(): the orders must be a dict");
        return -1;
    }
    for (Py_ssize_t k = 0; k < t->n; k++)
        first_of[k] = -1;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(after_d, &pos, &key, &value)) {
        long x = as_long(key), y = as_long(value);
        if (PyErr_Occurred())
            return -1;
        if (x < 0 || x >= t->n || y < 0 || y >= t->n) {
            PyErr_SetString(PyExc_ValueError, "fixpoint(): an order out of range");
            return -1;
        }
        first_of[x] = y;
    }
    return PyDict_GET_SIZE(after_d) > 0;
}

/* Save (``save`` 1) the state of a fixpoint run at the start of a phase into
 * ``snap``, one of the probe's snapshot slots, or restore it from there (0):
 * the counts of cards in ``hc``, the rows' spaces ``opened``, the cards still
 * out ``left``, the misplaced cards not in (``loose``, ``n_loose``), each
 * pile's stack and cards dealt, the cards still out after each phase
 * (``behind``) and the cards in (``inh``), each at its offset in ``snap_off``
 * (set with the slot's size in ``make_tables``). */
static void
snap_copy(long *snap, int save, Tables *t, long *hc, long *opened, long *left, long *n_loose,
          long total, long last)
{
    Py_ssize_t np = t->n_piles;
    const Py_ssize_t *at = t->snap_off;
#define SNAP_MOVE(f, field, bytes) \
    (save ? memcpy(snap + at[f], (field), (bytes)) : memcpy((field), snap + at[f], (bytes)))
    SNAP_MOVE(SO_HC, hc, N_CARDS * sizeof(long));
    SNAP_MOVE(SO_OPENED, opened, 3 * sizeof(long));
    SNAP_MOVE(SO_LEFT, left, sizeof(long));
    SNAP_MOVE(SO_N_LOOSE, n_loose, sizeof(long));
    SNAP_MOVE(SO_LOOSE, t->loose, (size_t)*n_loose * sizeof(long));
    SNAP_MOVE(SO_STACK_LEN, t->stack_len, (size_t)np * sizeof(long));
    SNAP_MOVE(SO_DEALT, t->dealt, (size_t)np * sizeof(long));
    SNAP_MOVE(SO_STACKS, t->stacks, (size_t)total * sizeof(long));
    SNAP_MOVE(SO_BEHIND, t->behind, (size_t)(last + 1) * sizeof(long));
    SNAP_MOVE(SO_INH, t->inh, (size_t)t->n);
#undef SNAP_MOVE
}

/* Why a pile's top (``p_*``, by pile) or a misplaced card (``l_*``, by its
 * place in ``loose``) did not join when last asked in this phase: 0 not
 * known (ask), HELD (held, or waiting for a filler: not before the next
 * phase), AFTER (its first copy ``res`` is not in), ROOM (no slot or space:
 * its count ``res``, a suit 0-3 or a row's spaces 4-6, had ``ver`` changes).
 * Nothing else it depends on changes within a phase, so until that changes
 * it would not join: the passes skip it, and take the cards in the same
 * order as when every card is asked at every pass. */
enum { ASK = 0, HELD = 1, AFTER = 2, ROOM = 3 };

/* Whether a pile's top or a misplaced card that did not join when last asked
 * (why: ``kind``, on ``res`` at version ``at``) still would not. */
static inline int
still_waits(long kind, long res, long at, const char *inh, const long *ver)
{
    return kind == HELD || (kind == AFTER && !inh[res]) || (kind == ROOM && ver[res] == at);
}

/* One run of the fixpoint on position ``q`` (``fixpoint_py``): each
 * instance's phase of joining into ``joined``. 1 if every instance joins, 0 if
 * one never does, -1 with an exception set. ``first_of``: the orders (NULL for
 * none); ``hold`` / ``until``: a card that may not join before a phase;
 * ``base`` (NULL for none) and ``late``: a run with one constraint fewer, to
 * resume from; ``trace`` (NULL for none): how each instance joined. */
static int
run(Tables *t, const Position *q, const long *first_of, long hold, long until, const long *base,
    long late, long *trace, long *joined)
{
    Py_ssize_t n = t->n, np = t->n_piles, n_mis = q->n_mis;
    const long *card = t->card, *row_of = t->row_of, *arrive = t->arrive;
    const long *cnt = q->cnt, *sp = q->sp, *fill_by = q->fill_by;
    long *stack_len = t->stack_len, *dealt = t->dealt, *loose = t->loose, *behind = t->behind;
    char *inh = t->inh;
    long deals = q->deals, last = q->last;
    int has_after = first_of != NULL, has_base = base != NULL, has_trace = trace != NULL;
    long hc[N_CARDS], opened[3];
    const int(*swap_ok)[3] = q->swap_ok;
    for (int k = 0; k < N_CARDS; k++)
        hc[k] = cnt[k];
    for (Py_ssize_t k = 0; k < n; k++)
        inh[k] = t->home[k] != 0;
    for (int a = 0; a < 3; a++)
        opened[a] = sp[a];

    long start = deals;
    long bound = hold >= 0 ? hold : late;  /* the card whose constraint is new */
    long n_loose = 0, left = 0;
    long *snap = NULL;  /* where the base run's state at ``start`` is kept, if it is */
    int kept = 0;       /* and whether it is there already */
    if (!has_base) {
        for (Py_ssize_t k = 0; k < n; k++)
            joined[k] = -1;
        for (Py_ssize_t k = 0; k < n_mis; k++)
            loose[n_loose++] = t->mis_all[k];
    }
    else {
        if (bound < 0 || bound >= n || base[bound] < 0 || base[bound] > last) {
            PyErr_SetString(PyExc_ValueError, "fixpoint(): a resumed run needs its constraint");
            return -1;
        }
        start = base[bound];
        /* every card the run does not take in again keeps its phase of the base run */
        memcpy(joined, base, (size_t)n * sizeof(long));
        if (t->snap_gen && start < SNAP_PHASES) {
            snap = t->snap + t->snap_stride * start;
            kept = t->snap_of[start] == t->snap_gen;
        }
    }
    long total = np ? t->seq_start[np - 1] + t->seq_len[np - 1] : 0;  /* the piles' places */
    if (kept)  /* the base run's state at the start of phase ``start``, kept */
        snap_copy(snap, 0, t, hc, opened, &left, &n_loose, total, last);
    else {
        if (has_base) {
            /* the base run's state at the start of phase ``start`` */
            for (long q = 0; q <= last; q++)
                behind[q] = 0;
            for (Py_ssize_t k = 0; k < n; k++) {
                long ph = base[k];
                if (ph > last) {
                    PyErr_SetString(PyExc_ValueError, "fixpoint(): the base run is out of range");
                    return -1;
                }
                if (ph >= 0)
                    behind[ph]++;
                if (ph >= 0 && ph < start) {
                    inh[k] = 1;
                    hc[card[k]]++;
                    if (row_of[k] >= 0)
                        opened[row_of[k]]++;
                }
            }
            for (Py_ssize_t k = 0; k < n_mis; k++)
                if (!inh[t->mis_all[k]])
                    loose[n_loose++] = t->mis_all[k];
        }
        for (Py_ssize_t j = 0; j < np; j++) {
            stack_len[j] = 0;
            dealt[j] = 0;
            if (has_base) {
                const long *seq = t->seqs + t->seq_start[j];
                long *stack = t->stacks + t->seq_start[j];
                long k = 0;
                while (k < t->seq_len[j] && arrive[seq[k]] < start) {
                    if (!inh[seq[k]])
                        stack[stack_len[j]++] = k;
                    k++;
                }
                dealt[j] = k;
            }
        }
        left = n_loose;
        for (Py_ssize_t j = 0; j < np; j++)
            left += stack_len[j] + t->seq_len[j] - dealt[j];
        if (has_base) {  /* from counts of cards joined per phase to cards still out after it */
            long out = left;
            for (long q = 0; q < start; q++)
                behind[q] = 0;
            for (long q = start; q <= last; q++) {
                out -= behind[q];
                behind[q] = out;
            }
        }
        if (snap) {  /* kept for the next run resumed from the same base at the same phase */
            snap_copy(snap, 1, t, hc, opened, &left, &n_loose, total, last);
            t->snap_of[start] = t->snap_gen;
        }
    }

    long *p_kind = t->p_kind, *p_res = t->p_res, *p_ver = t->p_ver;
    long *l_kind = t->l_kind, *l_res = t->l_res, *l_ver = t->l_ver;
    long ver[7] = {0, 0, 0, 0, 0, 0, 0};
    const long *pos_of = t->pos_of;

    for (long phase = start; phase <= last; phase++) {
        long stamp = 0;
        for (Py_ssize_t j = 0; j < np; j++) {
            const long *seq = t->seqs + t->seq_start[j];
            long *stack = t->stacks + t->seq_start[j];
            long k = dealt[j];
            while (k < t->seq_len[j] && arrive[seq[k]] <= phase)
                stack[stack_len[j]++] = k++;
            dealt[j] = k;
            p_kind[j] = ASK;
        }
        for (long q = 0; q < n_loose; q++)
            l_kind[q] = ASK;
        int changed = 1;
        while (changed) {
            changed = 0;
            for (Py_ssize_t j = 0; j < np; j++) {
                long kind = p_kind[j];
                if (kind != ASK) {
                    if (still_waits(kind, p_res[j], p_ver[j], inh, ver))
                        continue;
                    p_kind[j] = ASK;
                }
                const long *seq = t->seqs + t->seq_start[j];
                const long *next = t->seq_next + t->seq_start[j];
                const long *stack = t->stacks + t->seq_start[j];
                while (stack_len[j] > 0) {
                    long pos = stack[stack_len[j] - 1];
                    long i = seq[pos];
                    if (i == hold && phase < until) {
                        p_kind[j] = HELD;
                        break;
                    }
                    long c = card[i];
                    /* the cards above i by this phase are all in; count those that
                     * used the same resource */
                    long top = dealt[j];
                    long same = same_above_indexed(next, pos, top);
                    if (has_after) {
                        long y = first_of[i];
                        if (y >= 0) {
                            if (!inh[y]) {
                                p_kind[j] = AFTER;
                                p_res[j] = y;
                                break;
                            }
                            long u = pos_of[y];  /* not above it: one more slot */
                            if (u <= pos || u >= top || seq[u] != y)
                                same++;
                        }
                    }
                    long room = room_for(hc, cnt, opened, c, same);
                    if (room < 0) {
                        long rank = c >> 2;
                        p_kind[j] = ROOM;
                        p_res[j] = rank >= 4 ? (c & 3) : 3 + rank;
                        p_ver[j] = ver[p_res[j]];
                        break;
                    }
                    stack_len[j]--;
                    if (has_trace) {
                        trace[i] = 2 * stamp + (room > 0);
                        stamp++;
                    }
                    inh[i] = 1;
                    joined[i] = phase;
                    hc[c]++;
                    ver[c & 3]++;
                    left--;
                    changed = 1;
                }
            }
            if (n_loose) {
                long kept = 0;
                for (long q = 0; q < n_loose; q++) {
                    long i = loose[q];
                    long kind = l_kind[q];
                    if (kind != ASK) {
                        if (still_waits(kind, l_res[q], l_ver[q], inh, ver)) {
                            l_kind[kept] = kind;
                            l_res[kept] = l_res[q];
                            l_ver[kept] = l_ver[q];
                            loose[kept++] = i;
                            continue;
                        }
                    }
                    if (i == hold && phase < until) {
                        l_kind[kept] = HELD;
                        loose[kept++] = i;
                        continue;
                    }
                    long c = card[i];
                    long rank = c >> 2;
                    long same = 0;
                    if (has_after) {
                        long y = first_of[i];
                        if (y >= 0) {
                            if (!inh[y]) {
                                l_kind[kept] = AFTER;
                                l_res[kept] = y;
                                loose[kept++] = i;
                                continue;
                            }
                            same = 1;
                        }
                    }
                    long a = row_of[i];
                    /* a card leaving its row before the last phase needs a filler
                     * base too (not an Ace, nor a base going by an interchange,
                     * which takes no space) */
                    long room;
                    long why = ROOM;
                    if (rank >= 1 && rank <= 3 && swap_ok[a][rank - 1] && swap_ok[rank - 1][a])
                        room = 1;
                    else {
                        room = room_for(hc, cnt, opened, c, same);
                        if (rank && room >= 0 && phase < last && fill_by[a] > phase) {
                            room = -1;
                            why = HELD;
                        }
                    }
                    if (room >= 0) {
                        if (has_trace) {
                            trace[i] = 2 * stamp + (room > 0);
                            stamp++;
                        }
                        inh[i] = 1;
                        joined[i] = phase;
                        hc[c]++;
                        ver[c & 3]++;
                        opened[a]++;
                        ver[4 + a]++;
                        left--;
                        changed = 1;
                    }
                    else {
                        l_kind[kept] = why;
                        if (why == ROOM) {
                            l_res[kept] = rank >= 4 ? (c & 3) : 3 + rank;
                            l_ver[kept] = ver[l_res[kept]];
                        }
                        loose[kept++] = i;
                    }
                }
                n_loose = kept;
            }
        }
        /* caught up with the base run: the rest of the run is the base run's */
        if (has_base && left == behind[phase]) {
            left = 0;
            break;
        }
    }

    return left == 0;
}

/* fixpoint(tables, cnt, home, sp, mis, deals, arrive, seqs, last, fill_by, after,
 *          hold, until, base, late, trace): ``fixpoint_py``. */
static PyObject *
fixpoint(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Tables *t = tables_of(args, nargs, 16, "fixpoint");
    if (!t)
        return NULL;
    PyObject *base_l = args[13], *trace_l = args[15];
    long hold = PyLong_AsLong(args[11]);
    long until = PyLong_AsLong(args[12]);
    long late = PyLong_AsLong(args[14]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t n = t->n;
    Position q;
    if (read_position(t, args + 1, &q))
        return NULL;
    int has_after = read_orders(t, args[10], t->first_of);
    if (has_after < 0)
        return NULL;
    int has_base = base_l != Py_None;
    int has_trace = trace_l != Py_None;
    t->snap_gen = 0;  /* a base read from Python: no state of the probe's runs applies */
    if (has_base && read_ints(base_l, n, t->base, "base"))
        return NULL;
    long *trace = t->trace;
    if (has_trace) {
        if (read_ints(trace_l, n, trace, "trace"))
            return NULL;
        memcpy(t->trace0, trace, (size_t)n * sizeof(long));
    }
    int all_in = run(t, &q, has_after ? t->first_of : NULL, hold, until,
                     has_base ? t->base : NULL, late, has_trace ? trace : NULL, t->joined);
    if (all_in < 0)
        return NULL;
    if (has_trace) {
        for (Py_ssize_t k = 0; k < n; k++) {
            if (trace[k] == t->trace0[k])
                continue;
            PyObject *v = PyLong_FromLong(trace[k]);
            if (!v || PyList_SetItem(trace_l, k, v) < 0)
                return NULL;
        }
    }
    if (!all_in)
        Py_RETURN_NONE;
    return int_list(t->joined, n);
}

/* probe(tables, cnt, home, sp, mis, deals, arrive, seqs, last, fill_by, after,
 *       pairs, joined, trace): ``ordering_probe_py``.
 * ``joined`` and ``trace``: the run with the orders ``after``; ``pairs``: the
 * copies to order, a flat list x0, y0, x1, y1, ... Returns None if the position
 * is lost, else ``(joined, orders)``: the last run, and ``after`` with the
 * orders learnt. */
static PyObject *
probe(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Tables *t = tables_of(args, nargs, 14, "probe");
    if (!t)
        return NULL;
    PyObject *after_d = args[10], *pairs_l = args[11];
    Py_ssize_t n = t->n;
    Position q;
    if (read_position(t, args + 1, &q))
        return NULL;
    long *first_of = t->first_of;
    if (read_orders(t, after_d, first_of) < 0)
        return NULL;
    if (!PyList_Check(pairs_l) || PyList_GET_SIZE(pairs_l) % 2
        || PyList_GET_SIZE(pairs_l) > 2 * t->max_pairs) {
        PyErr_SetString(PyExc_TypeError, "probe(): pairs must be a flat list of pairs");
        return NULL;
    }
    Py_ssize_t n_pairs = PyList_GET_SIZE(pairs_l) / 2;
    long *pairs = t->pairs, *learnt = t->learnt;
    if (read_ints(pairs_l, 2 * n_pairs, pairs, "pairs"))
        return NULL;
    for (Py_ssize_t k = 0; k < 2 * n_pairs; k++) {
        if (pairs[k] < 0 || pairs[k] >= n) {
            PyErr_SetString(PyExc_ValueError, "probe(): an instance out of range");
            return NULL;
        }
    }
    /* three (joined, trace) pairs of buffers: the current run, and the runs with
     * each order of the pair probed */
    long *cur_j = t->probe_buf, *cur_t = cur_j + n;
    long *x_j = cur_t + n, *x_t = x_j + n;
    long *y_j = x_t + n, *y_t = y_j + n;
    if (read_ints(args[12], n, cur_j, "joined") || read_ints(args[13], n, cur_t, "trace"))
        return NULL;
    size_t bytes = (size_t)n * sizeof(long);
    Py_ssize_t n_learnt = 0;
    /* the runs resumed from the current run share its state at each phase start */
    if (!t->snap) {
        t->snap = (long *)malloc(((size_t)t->snap_stride + 1) * SNAP_PHASES * sizeof(long));
        if (!t->snap)
            return PyErr_NoMemory();
        t->snap_of = t->snap + t->snap_stride * SNAP_PHASES;
        for (int p = 0; p < SNAP_PHASES; p++)
            t->snap_of[p] = 0;
    }
    t->snap_gen = ++t->snap_next;
    /* A pair asked again after orders were learnt gives its two runs again if
     * both kept every one of those orders, the later card with a slot or a space
     * to spare (as for y_same below): each such order allows each of the run's
     * steps, so the run with it is the run without it. Then it learns nothing,
     * as before, and its runs are not made. ``pair_runs``: for each pair, its two
     * runs as each card's place in the run's order (phase * span + trace). */
    long span = 2 * (long)n + 2, *asked = t->pair_asked;
    for (Py_ssize_t k = 0; k < n_pairs; k++)
        asked[k] = -1;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (Py_ssize_t k = 0; k < n_pairs; k++) {
            long x = pairs[2 * k], y = pairs[2 * k + 1];
            if (first_of[x] >= 0 || first_of[y] >= 0)
                continue;  /* ordered already */
            long *kept = t->pair_runs + 2 * n * k;
            if (asked[k] >= 0) {
                int same = 1;
                for (Py_ssize_t m = asked[k]; m < n_learnt && same; m++) {
                    long u = learnt[m], v = first_of[u];
                    for (long *r = kept; r < kept + 2 * n; r += n)
                        if (!(r[v] < r[u] && (r[u] & 1)))
                            same = 0;
                }
                if (same) {
                    asked[k] = n_learnt;
                    continue;  /* both runs pass again: nothing to learn */
                }
            }
            asked[k] = n_learnt;
            if (cur_j[y] < cur_j[x] || (cur_j[y] == cur_j[x] && cur_t[y] < cur_t[x])) {
                long z = x;  /* x went first in that run */
                x = y;
                y = z;
            }
            /* x after y: a run resumed from the current one */
            memcpy(x_t, cur_t, bytes);
            first_of[x] = y;
            int x_ok = run(t, &q, first_of, -1, 0, cur_j, x, x_t, x_j);
            first_of[x] = -1;
            if (x_ok < 0)
                return NULL;
            /* y after x: the current run itself if y found a slot (or a space) to spare in it */
            int y_ok;
            int y_same = cur_t[y] & 1;
            if (y_same)
                y_ok = 1;
            else {
                memcpy(y_t, cur_t, bytes);
                first_of[y] = x;
                y_ok = run(t, &q, first_of, -1, 0, cur_j, y, y_t, y_j);
                first_of[y] = -1;
                if (y_ok < 0)
                    return NULL;
            }
            if (!x_ok && !y_ok)
                Py_RETURN_NONE;
            if (x_ok && y_ok) {  /* kept for the next round */
                const long *yj = y_same ? cur_j : y_j, *yt = y_same ? cur_t : y_t;
                for (Py_ssize_t c = 0; c < n; c++) {
                    kept[c] = x_j[c] * span + x_t[c];
                    kept[n + c] = yj[c] * span + yt[c];
                }
            }
            if (!x_ok) {  /* every winning line has y after x */
                first_of[y] = x;
                learnt[n_learnt++] = y;
                if (!y_same) {
                    long *swap = cur_j; cur_j = y_j; y_j = swap;
                    swap = cur_t; cur_t = y_t; y_t = swap;
                    t->snap_gen = ++t->snap_next;
                }
                changed = 1;
            }
            else if (!y_ok) {  /* every winning line has x after y */
                first_of[x] = y;
                learnt[n_learnt++] = x;
                long *swap = cur_j; cur_j = x_j; x_j = swap;
                swap = cur_t; cur_t = x_t; x_t = swap;
                t->snap_gen = ++t->snap_next;
                changed = 1;
            }
        }
    }
    PyObject *orders = PyDict_Copy(after_d);
    if (!orders)
        return NULL;
    for (Py_ssize_t k = 0; k < n_learnt; k++) {
        PyObject *key = PyLong_FromLong(learnt[k]);
        PyObject *value = key ? PyLong_FromLong(first_of[learnt[k]]) : NULL;
        int bad = !value || PyDict_SetItem(orders, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (bad) {
            Py_DECREF(orders);
            return NULL;
        }
    }
    PyObject *joined = int_list(cur_j, n);
    if (!joined) {
        Py_DECREF(orders);
        return NULL;
    }
    PyObject *answer = PyTuple_Pack(2, joined, orders);
    Py_DECREF(joined);
    Py_DECREF(orders);
    return answer;
}

/* ----------------------------------------------------------- can_end_phase */

/* can_end_phase(tables, cnt, home, sp, res, mis, soon, deals, waiting, due):
 * ``can_end_phase_py``; ``waiting`` and ``due`` (the due cards not home)
 * are masks as little-endian bytes. */
static PyObject *
can_end_phase(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Tables *t = tables_of(args, nargs, 10, "can_end_phase");
    if (!t)
        return NULL;
    PyObject *res_l = args[4], *soon_l = args[6];
    long deals = PyLong_AsLong(args[7]);
    if (deals == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = t->n;
    if (!PyList_Check(res_l) || PyList_GET_SIZE(res_l) > n + EXTRA || !PyBytes_Check(args[8])
        || !PyBytes_Check(args[9])) {
        PyErr_SetString(PyExc_TypeError, "can_end_phase(): bad arguments");
        return NULL;
    }
    const unsigned char *waits = (const unsigned char *)PyBytes_AS_STRING(args[8]);
    Py_ssize_t waits_size = PyBytes_GET_SIZE(args[8]);
    const unsigned char *due = (const unsigned char *)PyBytes_AS_STRING(args[9]);
    Py_ssize_t due_size = PyBytes_GET_SIZE(args[9]);
    if (soon_l != t->soon_obj) {
        Py_CLEAR(t->soon_obj);
        if (read_ints(soon_l, n, t->soon, "soon"))
            return NULL;
        remember(&t->soon_obj, soon_l);
    }
    const long *card = t->card, *row_of = t->row_of, *partner = t->partner, *soon = t->soon;
    /* the reserve piles now, in the scratch arrays of fixpoint's piles */
    Py_ssize_t np = PyList_GET_SIZE(res_l);
    long *piles = t->stacks, *pile_start = t->dealt, *pile_len = t->stack_len, *tops = t->tops;
    long *loose = t->loose;
    char *inh = t->inh;
    long cnt[N_CARDS], hc[N_CARDS], sp[3];
    int swap_ok[3][3];
    if (read_ints(args[1], N_CARDS, cnt, "cnt") || read_ints(args[2], n, t->home, "home")
        || read_ints(args[3], 3, sp, "sp")
        || read_piles(res_l, n, n, piles, pile_start, pile_len, "res"))
        return NULL;
    Py_ssize_t n_mis = read_misplaced(t, args[5], swap_ok);
    if (n_mis < 0)
        return NULL;

    int any_due = 0;
    for (Py_ssize_t b = 0; b < due_size; b++)
        if (due[b])
            any_due = 1;
    if (!any_due) {
        /* quick answer: a free base on top of a reserve pile for each space */
        long need[3] = {sp[0], sp[1], sp[2]};
        for (Py_ssize_t j = 0; j < np; j++) {
            if (!pile_len[j])
                continue;
            long i = piles[pile_start[j] + pile_len[j] - 1];
            long r = (card[i] >> 2) - 1;
            if (r >= 0 && r <= 2 && need[r] > 0 && soon[i] <= deals && !bit(waits, waits_size, i))
                need[r]--;
        }
        if (!need[0] && !need[1] && !need[2])
            Py_RETURN_TRUE;
    }
    /* a base of the row may go home by an interchange, taking no space */
    int swap_row[3];
    for (int r = 0; r < 3; r++) {
        swap_row[r] = 0;
        for (int a = 0; a < 3; a++)
            if (swap_ok[a][r] && swap_ok[r][a])
                swap_row[r] = 1;
    }
    int fill_ok[3] = {1, 1, 1};
    for (;;) {
        long opened[3] = {sp[0], sp[1], sp[2]}, bases[3] = {0, 0, 0};
        for (Py_ssize_t k = 0; k < n; k++)
            inh[k] = t->home[k] != 0;
        for (int k = 0; k < N_CARDS; k++)
            hc[k] = cnt[k];
        for (Py_ssize_t j = 0; j < np; j++)
            tops[j] = pile_len[j] - 1;
        long n_loose = 0;
        for (Py_ssize_t k = 0; k < n_mis; k++)
            loose[n_loose++] = t->mis_all[k];
        int changed = 1;
        while (changed) {
            changed = 0;
            for (Py_ssize_t j = 0; j < np; j++) {
                const long *pile = piles + pile_start[j];
                long len = pile_len[j];
                long k = tops[j];
                while (k >= 0) {
                    long i = pile[k];
                    if (soon[i] > deals)
                        break;
                    long c = card[i];
                    long rank = c >> 2;
                    /* the cards above it (all in) that used its slot or space */
                    long same = same_above(card, pile, k, len);
                    if (bit(waits, waits_size, i)) {
                        /* its rival goes home first, on a slot or a space of its own */
                        if (rank >= 4) {
                            long y = partner[i];
                            if (y >= 0 && !inh[y])
                                break;
                            int above = 0;
                            for (long u = k + 1; u < len; u++)
                                if (pile[u] == y)
                                    above = 1;
                            if (!above)
                                same++;
                        }
                        else if (rank) {  /* (an Ace never waits) */
                            if (!bases[rank - 1])
                                break;
                            if (!same && !swap_row[rank - 1])
                                same = 1;
                        }
                    }
                    if (rank == 0) {
                    }
                    else if (rank <= 3) {
                        if (opened[rank - 1] <= same)
                            break;
                        bases[rank - 1]++;
                    }
                    else if (cap_below(hc, c) <= cnt[c] + same)
                        break;
                    inh[i] = 1;
                    hc[c]++;
                    k--;
                    changed = 1;
                }
                tops[j] = k;
            }
            long kept = 0;
            for (long q = 0; q < n_loose; q++) {
                long i = loose[q];
                long c = card[i];
                long rank = c >> 2;
                long a = row_of[i];
                int ok = soon[i] <= deals;
                long same = 0;
                if (ok && bit(waits, waits_size, i)) {
                    if (rank >= 4) {
                        long y = partner[i];
                        ok = y < 0 || inh[y];
                        same = 1;
                    }
                    else if (rank) {
                        ok = bases[rank - 1] > 0;
                        same = swap_row[rank - 1] ? 0 : 1;
                    }
                }
                if (ok) {
                    if (rank == 0)
                        ok = fill_ok[a];
                    else if (rank <= 3) {
                        long r = rank - 1;
                        ok = (swap_ok[a][r] && swap_ok[r][a]) || (opened[r] > same && fill_ok[a]);
                    }
                    else
                        ok = cap_below(hc, c) > cnt[c] + same && fill_ok[a];
                }
                if (ok) {
                    inh[i] = 1;
                    hc[c]++;
                    opened[a]++;
                    if (rank >= 1 && rank <= 3)
                        bases[rank - 1]++;
                    changed = 1;
                }
                else
                    loose[kept++] = i;
            }
            n_loose = kept;
        }
        if (sp[0] > bases[0] || sp[1] > bases[1] || sp[2] > bases[2])
            Py_RETURN_FALSE;
        for (Py_ssize_t i = 0; i < n; i++)
            if (bit(due, due_size, (long)i) && !inh[i])
                Py_RETURN_FALSE;
        int nxt[3] = {bases[0] > 0, bases[1] > 0, bases[2] > 0};
        if (nxt[0] == fill_ok[0] && nxt[1] == fill_ok[1] && nxt[2] == fill_ok[2])
            Py_RETURN_TRUE;
        for (int r = 0; r < 3; r++)
            fill_ok[r] = nxt[r];
    }
}

/* ------------------------------------------------------------------ module */

static PyMethodDef methods[] = {
    {"tables", (PyCFunction)(void (*)(void))make_tables, METH_FASTCALL,
     "tables(card, row_of, partner): a search's constant arrays."},
    {"fixpoint", (PyCFunction)(void (*)(void))fixpoint, METH_FASTCALL,
     "One run of the solver's dead-card fixpoint (``fixpoint_py``)."},
    {"probe", (PyCFunction)(void (*)(void))probe, METH_FASTCALL,
     "The ordering probe (``ordering_probe_py``)."},
    {"can_end_phase", (PyCFunction)(void (*)(void))can_end_phase, METH_FASTCALL,
     "The solver's dead-end test (``can_end_phase_py``)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "engine.solver._native",
    "The solver's dead-card fixpoint, ordering probe and dead-end test in C (see engine/solver/closure.py and phase.py).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    if (PyType_Ready(&TablesType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
