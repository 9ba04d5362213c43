// The sources to pick from: the names a self-hosted Supabase stack ships to, and those the
// gateway lists (GET /api/sources, for keys with the private scope).
import { getJson } from './api.js';

export const SUPABASE_SOURCES = [
  'cloudflare.logs.prod', 'postgres.logs', 'deno-relay-logs', 'deno-subhosting-events',
  'gotrue.logs.prod', 'realtime.logs.prod', 'storage.logs.prod.2', 'postgREST.logs.prod',
  'pgbouncer.logs.prod', 'supavisor.logs.prod',
];

export async function loadSources() {
  const answer = await getJson('/api/sources');
  if (answer.ok && Array.isArray(answer.body)) {
    const names = answer.body.map((s) => s && s.name).filter((n) => typeof n === 'string');
    const extra = names.filter((n) => !SUPABASE_SOURCES.includes(n)).sort((a, b) => a.localeCompare(b));
    return [...SUPABASE_SOURCES, ...new Set(extra)];
  }
  return SUPABASE_SOURCES;
}
