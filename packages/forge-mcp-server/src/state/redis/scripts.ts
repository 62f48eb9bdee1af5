/**
 * The Lua scripts of the Redis adapter. Each runs atomically in Redis, so replicas charging, evicting or
 * counting at once never interleave; each mirrors the in-memory implementation named beside it, with the
 * caller's clock passed in (ARGV) so expiries are judged as the memory adapter judges them, and sets a TTL on
 * every key it writes so nothing outlives its use.
 */

/** A script: how many of its arguments are keys, and its source. */
export interface Script {
  keys: number;
  lua: string;
}

// ------------------------------------------------------------------ identities (identities.ts)
// KEYS: values (hash), recency (zset, by a sequence), expiries (zset, by expiresAt), the sequence.
const DROP_IDENTITY = `
local function drop(k)
  redis.call('HDEL', KEYS[1], k)
  redis.call('ZREM', KEYS[2], k)
  redis.call('ZREM', KEYS[3], k)
end`;

/** ARGV: key, now. The identity's JSON, marked recently used; nil (and dropped) when expired. */
export const identityFresh: Script = {
  keys: 4,
  lua: `${DROP_IDENTITY}
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local exp = tonumber(redis.call('ZSCORE', KEYS[3], ARGV[1]))
if not exp or exp <= tonumber(ARGV[2]) then
  drop(ARGV[1])
  return false
end
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), ARGV[1])
return raw`,
};

/**
 * ARGV: key, JSON, expiresAt, now, max, ttlMs. At the cap, an expired identity goes first, else the least
 * recently used. Every entry expires within the TTL of the last write, so the TTL bounds all four keys.
 */
export const identityRemember: Script = {
  keys: 4,
  lua: `${DROP_IDENTITY}
drop(ARGV[1])
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then
  local victim = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[4], 'LIMIT', 0, 1)[1]
  if not victim then victim = redis.call('ZRANGE', KEYS[2], 0, 0)[1] end
  if victim then drop(victim) end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), ARGV[1])
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return 1`,
};

/** ARGV: key. */
export const identityForget: Script = {
  keys: 4,
  lua: `${DROP_IDENTITY}
drop(ARGV[1])
return 1`,
};

/** ARGV: now. Removes up to 1,000 expired identities; answers how many. */
export const identitySweep: Script = {
  keys: 4,
  lua: `${DROP_IDENTITY}
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', 0, 1000)
for _, k in ipairs(gone) do drop(k) end
return #gone`,
};

// ------------------------------------------------------------------ refused tokens (refused.ts)
// KEYS: values (hash of "until kind"), insertion order (zset, by a sequence), the sequence.

/** ARGV: key, now. The refusal's kind; nil (and dropped) once it has expired. */
export const refusedGet: Script = {
  keys: 3,
  lua: `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local sep = string.find(raw, ' ', 1, true)
if tonumber(string.sub(raw, 1, sep - 1)) <= tonumber(ARGV[2]) then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  return false
end
return string.sub(raw, sep + 1)`,
};

/** ARGV: key, until, kind, max, ttlMs. Oldest first out at the cap. */
export const refusedRemember: Script = {
  keys: 3,
  lua: `
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
while redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[2])[1]
  redis.call('HDEL', KEYS[1], oldest)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3])
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return 1`,
};

// ------------------------------------------------------------------ authentication budgets (budgets.ts)
// KEYS: the address's entry (JSON: f failure times, d refused digests and when, b blocked until, s step,
// l last seen). ARGV starts with now, failureLimit, failureWindowMs, distinctLimit, distinctWindowMs.
const BUDGET_COMMON = `
local now = tonumber(ARGV[1])
local fl, fw, dl, dw = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
-- Kept while a block, an escalation or a charge in a window has something to remember (the memory sweep's rule).
local function save(e)
  local keep = math.max(e.b - now, e.l + math.max(fw, dw) - now)
  if e.s > 0 then keep = math.max(keep, e.l + 60 * fw - now) end
  redis.call('SET', KEYS[1], cjson.encode(e), 'PX', math.max(1, math.ceil(keep)) + 1000)
end`;

/** Whole seconds left on the block in force, or 0. */
export const budgetBlocked: Script = {
  keys: 1,
  lua: `${BUDGET_COMMON}
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local e = cjson.decode(raw)
if e.b <= now then return 0 end
e.l = now
save(e)
return math.max(1, math.ceil((e.b - now) / 1000))`,
};

/** ARGV[6]: the refused credential's digest. Answers {reason, step, retryAfterS} when a block starts. */
export const budgetFail: Script = {
  keys: 1,
  lua: `${BUDGET_COMMON}
local digest = ARGV[6]
local raw = redis.call('GET', KEYS[1])
local e
if raw then e = cjson.decode(raw) else e = { f = {}, d = {}, b = 0, s = 0, l = now } end
if e.b > now then
  e.l = now
  save(e)
  return false
end
if now - e.l >= 60 * fw then e.s = 0 end
e.l = now
local reason = false
if fl > 0 then
  local kept = {}
  for _, t in ipairs(e.f) do if now - t < fw then table.insert(kept, t) end end
  table.insert(kept, now)
  e.f = kept
  if #kept >= fl then reason = 'failure_lockout' end
end
if dl > 0 and dw > 0 then
  local d, n = {}, 0
  for k, t in pairs(e.d) do
    if k ~= digest and now - t < dw then
      d[k] = t
      n = n + 1
    end
  end
  d[digest] = now
  e.d = d
  if not reason and n + 1 >= dl then reason = 'distinct_tokens' end
end
if not reason then
  save(e)
  return false
end
local escalation = { 1, 10, 60 }
local windows = escalation[math.min(e.s, 2) + 1]
e.s = math.min(e.s + 1, 3)
e.b = math.max(e.b, now + windows * fw)
e.f = {}
e.d = {}
save(e)
return { reason, e.s, math.max(1, math.ceil((e.b - now) / 1000)) }`,
};

// ------------------------------------------------------------------ rate limits (rate-limits.ts)
/**
 * KEYS: the credential's buckets (hash: <family>:t tokens, <family>:a as of). ARGV: now, the process-wide
 * list bucket's wait (ms; 0 none, -1 never) and time to full, then per family charged: name, n, rate, burst.
 * All or nothing: a refused request takes no token. Answers {1} or {0, retryAfterS, family, tooLarge}.
 */
export const rateCharge: Script = {
  keys: 1,
  lua: `
local now = tonumber(ARGV[1])
local worst, family, full = 0, false, 0
local takes, ttl = {}, 0
local i = 4
while i <= #ARGV do
  local f, n, rate, burst = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  i = i + 4
  local st = redis.call('HMGET', KEYS[1], f .. ':t', f .. ':a')
  local have = burst
  if st[1] then have = math.min(burst, tonumber(st[1]) + math.max(0, now - tonumber(st[2])) / 1000 * rate) end
  local wait = 0
  if have < n then
    if n > burst or rate <= 0 then wait = math.huge else wait = (n - have) / rate * 1000 end
  end
  if wait > 0 and wait > worst then
    worst, family = wait, f
    if rate > 0 then full = (burst - have) / rate * 1000 else full = 1000 end
  end
  table.insert(takes, { f, have - n })
  if rate > 0 then ttl = math.max(ttl, math.ceil(burst / rate * 1000)) end
end
local gwait = tonumber(ARGV[2])
if gwait ~= 0 then
  if gwait < 0 then gwait = math.huge end
  if gwait > worst then worst, family, full = gwait, 'global', tonumber(ARGV[3]) end
end
if family then
  local tooLarge = worst == math.huge
  local wait = worst
  if tooLarge then wait = full end
  return { 0, math.max(1, math.ceil(wait / 1000)), family, tooLarge and 1 or 0 }
end
for _, t in ipairs(takes) do
  redis.call('HSET', KEYS[1], t[1] .. ':t', tostring(t[2]), t[1] .. ':a', tostring(now))
end
-- A bucket untouched this long is full again, the same as none (kept a minute at least).
redis.call('PEXPIRE', KEYS[1], math.max(ttl + 1000, 60000))
return { 1 }`,
};

// ------------------------------------------------------------------ sessions (sessions.ts)
/**
 * KEYS: the record (hash), the session's event log and its counters. ARGV: lastActive, ttlMs. A record that is
 * gone stays gone; a live one's event log lives as long as it (a call outlasting a short timeout without an event
 * keeps what a stream resumed elsewhere replays).
 */
export const sessionTouch: Script = {
  keys: 3,
  lua: `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastActive', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return 1`,
};

// ------------------------------------------------------------------ event log (event-store.ts)
// KEYS[1]: the events (list of "seq\\nbytes\\nstream\\nmessage"); KEYS[2]: the counters (hash: seq, bytes, and
// "answerer:<stream>" while a replica answers requests of that stream: its id, then a line "t <request id JSON>"
// or "o <request id JSON>" per request still unanswered, t for a tools/call). A sealed message is sealed for its
// sequence number, so it is appended only at the one it was sealed for: `expected` (empty when not sealed).
// append keeps the newest events within both bounds (the newest always; `bytes` is the message's own size, sealed
// or not) and answers the new event's sequence number.
const APPEND_EVENT = `
local function nextSeq()
  return tonumber(redis.call('HGET', KEYS[2], 'seq') or '0') + 1
end
local function append(stream, message, bytes, max, maxBytes, ttl)
  local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
  local held = redis.call('HINCRBY', KEYS[2], 'bytes', bytes)
  redis.call('RPUSH', KEYS[1], seq .. '\\n' .. bytes .. '\\n' .. stream .. '\\n' .. message)
  local n = redis.call('LLEN', KEYS[1])
  while n > 1 and (n > tonumber(max) or held > tonumber(maxBytes)) do
    local first = redis.call('LPOP', KEYS[1])
    local gone = tonumber(string.match(first, '^%d+\\n(%d+)\\n'))
    held = redis.call('HINCRBY', KEYS[2], 'bytes', -gone)
    n = n - 1
  end
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  return seq
end`;

/**
 * ARGV: stream, message, bytes, max, maxBytes, ttlMs, what the event says of the stream's answerer, and the
 * sequence number the message was sealed for ("" when not sealed). The answerer: "" nothing, "answer <request id
 * JSON>" (that request is answered: the record keeps the others of a batch, and goes with the last), or the
 * record of the replica opening the stream. Answers the new event's sequence number, or, when the message was
 * sealed for another one, minus the one it is to be sealed for (nothing written).
 */
export const eventStore: Script = {
  keys: 2,
  lua: `${APPEND_EVENT}
if ARGV[8] ~= '' and tonumber(ARGV[8]) ~= nextSeq() then return -nextSeq() end
local seq = append(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
local field = 'answerer:' .. ARGV[1]
if string.sub(ARGV[7], 1, 7) == 'answer ' then
  local record = redis.call('HGET', KEYS[2], field)
  if record then
    local answered = string.sub(ARGV[7], 8)
    local kept, found = {}, false
    for line in string.gmatch(record .. '\\n', '([^\\n]*)\\n') do
      if #kept > 0 and not found and string.sub(line, 3) == answered then found = true
      else table.insert(kept, line) end
    end
    if #kept > 1 then redis.call('HSET', KEYS[2], field, table.concat(kept, '\\n'))
    else redis.call('HDEL', KEYS[2], field) end
  end
elseif ARGV[7] ~= '' then redis.call('HSET', KEYS[2], field, ARGV[7]) end
return seq`,
};

/**
 * KEYS: the counters, the live replicas (zset by heartbeat expiry). ARGV: stream, now. Whether a replica still
 * answers requests of the stream: 0 none (all answered, or none recorded), 1 one whose heartbeat holds, or, when
 * that replica has stopped (its heartbeat expiry passed, or it left), {its record, the next sequence number}.
 * One round trip for the check a tailed stream makes on every poll.
 */
export const eventAnswerer: Script = {
  keys: 2,
  lua: `
local record = redis.call('HGET', KEYS[1], 'answerer:' .. ARGV[1])
if not record then return 0 end
local expiry = tonumber(redis.call('ZSCORE', KEYS[2], string.match(record, '^([^\\n]*)')))
if expiry and expiry > tonumber(ARGV[2]) then return 1 end
return { record, tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') + 1 }`,
};

/**
 * KEYS: the events, the counters. ARGV: stream, the answerer record eventAnswerer answered, the sequence number
 * the first answer was sealed for ("" when not sealed), max, maxBytes, ttlMs, then (message, bytes) of an answer
 * per request of the record. When that record is still the stream's (its replica stopped before answering them),
 * appends the answers in its stead and drops the record: so they are stored once, however many replicas ask.
 * Answers 1 when it stored them, 0 when the record changed, -1 when events landed since (seal them again).
 */
export const eventAnswerStopped: Script = {
  keys: 2,
  lua: `${APPEND_EVENT}
if redis.call('HGET', KEYS[2], 'answerer:' .. ARGV[1]) ~= ARGV[2] then return 0 end
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= nextSeq() then return -1 end
redis.call('HDEL', KEYS[2], 'answerer:' .. ARGV[1])
for i = 7, #ARGV, 2 do append(ARGV[1], ARGV[i], ARGV[i + 1], ARGV[4], ARGV[5], ARGV[6]) end
return 1`,
};

/**
 * KEYS: the events. ARGV: a sequence number, how many to answer (-1: all). The events from that one on, oldest
 * first; none when it is no longer kept. Sequence numbers are consecutive in the list (it is only trimmed from
 * the front), so the event is found by its distance from the first without reading the others.
 */
export const eventsFrom: Script = {
  keys: 1,
  lua: `
local first = redis.call('LINDEX', KEYS[1], 0)
if not first then return {} end
local at = tonumber(ARGV[1]) - tonumber(string.match(first, '^(%d+)\\n'))
if at < 0 then return {} end
local last = -1
if tonumber(ARGV[2]) >= 0 then last = at + tonumber(ARGV[2]) - 1 end
local rows = redis.call('LRANGE', KEYS[1], at, last)
if #rows == 0 or tonumber(string.match(rows[1], '^(%d+)\\n')) ~= tonumber(ARGV[1]) then return {} end
return rows`,
};

// ------------------------------------------------------------------ subscriptions (subscriptions.ts)
/**
 * KEYS: the live replicas (zset by heartbeat expiry), this replica's stream counts (hash owner -> count).
 * ARGV: replica id, owner, perCredential, process full (1/0), perProcess, now, replica TTL, key prefix.
 * The credential's streams are summed over the live replicas (a dead replica's counts expire with it).
 */
export const streamOpen: Script = {
  keys: 2,
  lua: `
local now = tonumber(ARGV[6])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[7]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = 0
for _, r in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  held = held + tonumber(redis.call('HGET', ARGV[8] .. 'replica:' .. r .. ':streams', ARGV[2]) or 0)
end
local per = tonumber(ARGV[3])
if per > 0 and held >= per then return { 'credential', per } end
if ARGV[4] == '1' then return { 'process', tonumber(ARGV[5]) } end
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('PEXPIRE', KEYS[2], ARGV[7])
return false`,
};

/** KEYS: this replica's stream counts. ARGV: owner. */
export const streamClose: Script = {
  keys: 1,
  lua: `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1`,
};

// This replica's registry: a hash from owner NUL uri to JSON {o owner, u uri, s subscribers, v version}.
/** ARGV: owner, uri, subscriber, version, ttlMs. */
export const follow: Script = {
  keys: 1,
  lua: `
local field = ARGV[1] .. '\\0' .. ARGV[2]
local raw = redis.call('HGET', KEYS[1], field)
local e
if raw then
  e = cjson.decode(raw)
  local has = false
  for _, s in ipairs(e.s) do if s == ARGV[3] then has = true end end
  if not has then table.insert(e.s, ARGV[3]) end
else
  e = { o = ARGV[1], u = ARGV[2], s = { ARGV[3] }, v = ARGV[4] }
end
redis.call('HSET', KEYS[1], field, cjson.encode(e))
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`,
};

/** ARGV: subscriber, uri, whether the uri is given (1/0). */
export const unfollow: Script = {
  keys: 1,
  lua: `
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local e = cjson.decode(all[i + 1])
  if ARGV[3] ~= '1' or e.u == ARGV[2] then
    local kept = {}
    for _, s in ipairs(e.s) do if s ~= ARGV[1] then table.insert(kept, s) end end
    if #kept == 0 then
      redis.call('HDEL', KEYS[1], all[i])
    elseif #kept ~= #e.s then
      e.s = kept
      redis.call('HSET', KEYS[1], all[i], cjson.encode(e))
    end
  end
end
return 1`,
};

/** ARGV: owner. Forgets the owner's entries; answers their subscribers. */
export const forgetOwner: Script = {
  keys: 1,
  lua: `
local all = redis.call('HGETALL', KEYS[1])
local subscribers = {}
for i = 1, #all, 2 do
  local e = cjson.decode(all[i + 1])
  if e.o == ARGV[1] then
    for _, s in ipairs(e.s) do table.insert(subscribers, s) end
    redis.call('HDEL', KEYS[1], all[i])
  end
end
return subscribers`,
};

/** ARGV: owner, uri, version. 1 when the version differs from the one last seen (and records it). */
export const seen: Script = {
  keys: 1,
  lua: `
local field = ARGV[1] .. '\\0' .. ARGV[2]
local raw = redis.call('HGET', KEYS[1], field)
if not raw then return 0 end
local e = cjson.decode(raw)
if e.v == ARGV[3] then return 0 end
e.v = ARGV[3]
redis.call('HSET', KEYS[1], field, cjson.encode(e))
return 1`,
};

/**
 * KEYS: the live replicas, this replica's stream counts and registry, the live replicas refused for sealing
 * otherwise than the check value (zset by heartbeat expiry). ARGV: replica id, now, TTL, 1 when refused (else
 * 0), then the replica's stream counts (owner, count pairs), which replace what Redis holds: a close Redis
 * missed, or counts a restarted Redis lost, are right again within one heartbeat.
 */
export const heartbeat: Script = {
  keys: 4,
  lua: `
local now = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[4], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
else redis.call('ZREM', KEYS[4], ARGV[1]) end
redis.call('DEL', KEYS[2])
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 1`,
};

/**
 * KEYS: the sealing check value, the live replicas. ARGV: this replica's check value, replica id, now, TTL.
 * Claims the check value, or renews it when it is this replica's, and counts the replica live in the same step,
 * so a replica stopping meanwhile sees it and leaves the value; answers the value held when it differs.
 */
export const sealingClaim: Script = {
  keys: 2,
  lua: `
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return held end
local ttl = tonumber(ARGV[4])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]) + ttl, ARGV[2])
redis.call('PEXPIRE', KEYS[2], ttl)
return false`,
};

/**
 * KEYS: the live replicas, the sealing check value, this replica's stream counts and registry, the live
 * replicas refused (heartbeat). ARGV: replica id, now. The replica's own keys go; the last live replica holding
 * the check value takes it with it, in one step (refused replicas, alive but sealing otherwise, do not hold it).
 */
export const replicaLeave: Script = {
  keys: 5,
  lua: `
for _, k in ipairs({ KEYS[1], KEYS[5] }) do
  redis.call('ZREM', k, ARGV[1])
  redis.call('ZREMRANGEBYSCORE', k, '-inf', ARGV[2])
end
redis.call('DEL', KEYS[3], KEYS[4])
if redis.call('ZCARD', KEYS[1]) <= redis.call('ZCARD', KEYS[5]) then redis.call('DEL', KEYS[2]) end
return 1`,
};

export const SCRIPTS = {
  identityFresh,
  identityRemember,
  identityForget,
  identitySweep,
  refusedGet,
  refusedRemember,
  budgetBlocked,
  budgetFail,
  rateCharge,
  sessionTouch,
  eventStore,
  eventAnswerer,
  eventAnswerStopped,
  eventsFrom,
  streamOpen,
  streamClose,
  follow,
  unfollow,
  forgetOwner,
  seen,
  heartbeat,
  sealingClaim,
  replicaLeave,
};
export type ScriptName = keyof typeof SCRIPTS;
