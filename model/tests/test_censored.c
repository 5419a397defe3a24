/* The censored latency estimate (model/fit_censored.c) on a synthetic run
 * whose true latency is known: each tile's data lands L after its issue
 * (L ~ N(10,000, 1,500)), the consumer arrives at A (uniform 4,000..16,000,
 * independent of L), its wait ends at max(L, A) + a 57-cycle poll floor.
 * Where it waited beyond the floor + 50 the end is exact, elsewhere only an
 * upper bound on L + floor.  About half the tiles are censored. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "dist.h"
#include "fit_censored.h"

enum { N = 4000 };
static const double k_floor = 57, k_true_mean = 10000, k_true_sd = 1500;

typedef struct {
    double y[N];
    unsigned char exact[N];
    double true_mean;
} sample;

static void make_sample(sample *s, uint64_t seed)
{
    rng r;
    rng_seed(&r, seed);
    double sum = 0;
    for (int i = 0; i < N; i++) {
        const double land = k_true_mean + k_true_sd * rng_normal(&r);
        const double arrive = 4000 + 12000 * rng_uniform(&r);
        s->y[i] = fmax(land, arrive) + k_floor;                           /* wait end - issue */
        s->exact[i] = (unsigned char)(s->y[i] - arrive > k_floor + 50); /* it waited: blocked */
        sum += land;
    }
    s->true_mean = sum / N;
}

static double mean_of(const double *v, int n) /* less the floor */
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    return sum / n - k_floor;
}

/* The Kaplan-Meier mean and median land within 1.5% of the truth on each
 * of five samples; every old reading of the same data is biased. */
static void test_recovers_latency(void **state)
{
    (void)state;
    static sample s;
    static double q[N], ex[N];
    for (uint64_t seed = 1; seed <= 5; seed++) {
        make_sample(&s, seed);
        int ne = 0;
        for (int i = 0; i < N; i++)
            if (s.exact[i])
                ex[ne++] = s.y[i];
        assert_true(ne > N / 3 && ne < 2 * N / 3); /* the sample really is censored */
        assert_int_equal(fit_censored_quantiles(s.y, s.exact, N, 20, q, N), 0);
        const double km = mean_of(q, N), med = q[N / 2] - k_floor;
        assert_true(fabs(km - s.true_mean) < 0.015 * s.true_mean);
        assert_true(fabs(med - k_true_mean) < 0.015 * k_true_mean);
        for (int i = 1; i < N; i++)
            assert_true(q[i] >= q[i - 1]);
        /* every end read as a landing (the bounds too): > +10% */
        assert_true(mean_of(s.y, N) > 1.10 * s.true_mean);
        /* only the tiles that waited: the late landings, > +2% */
        assert_true(mean_of(ex, ne) > 1.02 * s.true_mean);
    }
}

/* Exact values alone: the estimate is their empirical distribution. */
static void test_all_exact_is_empirical(void **state)
{
    (void)state;
    const double y[4] = {40, 10, 30, 20};
    const unsigned char x[4] = {1, 1, 1, 1};
    double q[4];
    assert_int_equal(fit_censored_quantiles(y, x, 4, 1, q, 4), 0);
    assert_true(q[0] == 10 && q[1] == 20 && q[2] == 30 && q[3] == 40);
}

/* A bound above every exact value carries no information (the exacts keep
 * equal mass); one below an exact value moves mass down to the values under
 * it: with the bound at 15, the risk set at 20 is {10, 15, 20}, so 20 gets
 * 1/3 and 10 the other 2/3. */
static void test_bounds_move_mass_down(void **state)
{
    (void)state;
    const double y[4] = {10, 20, 100, 15};
    const unsigned char x[4] = {1, 1, 0, 0};
    double q[6];
    assert_int_equal(fit_censored_quantiles(y, x, 3, 1, q, 6), 0); /* bound 100 only */
    assert_true(q[0] == 10 && q[2] == 10 && q[3] == 20 && q[5] == 20);
    assert_int_equal(fit_censored_quantiles(y, x, 4, 1, q, 6), 0); /* and bound 15 */
    assert_true(q[0] == 10 && q[3] == 10 && q[4] == 20 && q[5] == 20);
}

/* Too few exact observations: 1, out untouched; NaN skipped. */
static void test_too_few_exact(void **state)
{
    (void)state;
    const double y[3] = {10, NAN, 30};
    const unsigned char x[3] = {1, 1, 0};
    double q[3] = {-1, -1, -1};
    assert_int_equal(fit_censored_quantiles(y, x, 3, 2, q, 3), 1);
    assert_true(q[0] == -1 && q[1] == -1 && q[2] == -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovers_latency),
        cmocka_unit_test(test_all_exact_is_empirical),
        cmocka_unit_test(test_bounds_move_mass_down),
        cmocka_unit_test(test_too_few_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
