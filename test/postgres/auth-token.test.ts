// The token and bearer-guard suites again, on real PostgreSQL (the harness picks the database).
import '../auth/api-token.test.ts';
import '../auth/bearer-guard.test.ts';
import '../auth/oauth-token.test.ts';
