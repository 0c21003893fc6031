// The brute-force limits (counted atomically under real concurrency) and certificate-bound tokens
// again, on real PostgreSQL (the harness picks the database).
import '../auth/brute-force.test.ts';
import '../auth/certificate-bound-tokens.test.ts';
