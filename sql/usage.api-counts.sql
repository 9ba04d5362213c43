-- usage.api-counts: requests per time bucket per API area (service spec §2.4, §4.3).
-- The window and the bucket follow @interval; @project is a regular expression matched against
-- the request URL. A request whose path matches several areas counts in each of them.
-- Interval values: minutely (last 60 minutes, per minute), hourly (last hour, per hour),
-- daily (last 7 days, per day), and the values newer clients send: 1hr (last hour, per minute),
-- 1day (last day, per hour), 7day (last 7 days, per day).
--
-- Whole minutes are read from the rollup logs.edge_api_minute (migration 020) plus the counts
-- not yet folded into it, logs.edge_api_minute_delta (migration 035; the same snapshot sees a
-- count in exactly one of them), when that gives exactly the raw answer, else every row is read
-- from logs.edge. The rollup answers when
-- @project is a plain string (letters, digits, '_', '-'; at least 3) that no URL contains after
-- its prefix: such a string cannot straddle the '/', '?' or '#' ending the prefix, so a URL
-- contains it exactly when its prefix does. "No URL" is proved by one trigram missing from
-- logs.edge_url_rest_trigrams (migration 025: pg_trgm's inner trigrams of the lower-cased
-- alphanumeric words of every URL rest) over the window's days: a rest containing @project
-- holds each maximal run of letters and digits of @project inside one of its words, so it has
-- every 3-character substring of each lower-cased run of 3 or more. A project without such a run
-- ('ab-cd'), or whose lower case is not ASCII, reads logs.edge. The window's
-- partial first minute is always read from logs.edge. Where an index range should serve it, the
-- window's start is written out (Postgres estimates it and evaluates it once as an index key);
-- the long windows read most of the rollup, so they compare with a value computed once
-- (split.rollup_start) instead of evaluating the expression for every rollup row. The CTE requests (the raw rows of the
-- window) is kept for consumer queries that read it; the chart itself does not.
with requests as (
  select
    datetime(
      case
        when @interval in ('minutely', '1hr') then timestamp_trunc(t.timestamp, minute)
        when @interval in ('hourly', '1day') then timestamp_trunc(t.timestamp, hour)
        else timestamp_trunc(t.timestamp, day)
      end,
      'UTC') as timestamp,
    r.path,
    r.url
  from `logs.edge` as t
  cross join unnest(t.metadata) as m
  cross join unnest(m.request) as r
  where t.timestamp >= case
      when @interval = 'minutely' then timestamp_sub(current_timestamp(), interval 60 minute)
      when @interval in ('hourly', '1hr') then timestamp_sub(current_timestamp(), interval 1 hour)
      when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
      else timestamp_sub(current_timestamp(), interval 7 day)
    end
    and regexp_contains(r.url, @project)
),
bounds as (
  select
    case
      when @interval = 'minutely' then timestamp_sub(current_timestamp(), interval 60 minute)
      when @interval in ('hourly', '1hr') then timestamp_sub(current_timestamp(), interval 1 hour)
      when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
      else timestamp_sub(current_timestamp(), interval 7 day)
    end as window_start
),
split as (
  select timestamp_add(timestamp_trunc(window_start, minute), interval 1 minute) as rollup_start
  from bounds
),
project_trigrams as (
  select distinct substr(run, i, 3) as trigram
  from unnest(regexp_extract_all(lower(@project), r'[a-z0-9]{3,}')) as run
  cross join unnest(generate_array(1, length(run) - 2)) as i
  where regexp_contains(@project, r'^[A-Za-z0-9_-]{3,}$')
    and regexp_contains(lower(@project), r'^[a-z0-9_-]+$')
),
rest_trigrams as (
  select count(distinct g.trigram) as found
  from `logs.edge_url_rest_trigrams` as g
  where g.day >= (select timestamp_trunc(window_start, day) from bounds)
    and g.trigram in (select trigram from project_trigrams)
),
mode as (
  select
    (select count(*) from project_trigrams) > 0
      and (select found from rest_trigrams) < (select count(*) from project_trigrams) as use_rollup
),
raw_rows as (
  select t.timestamp as ts, r.path
  from `logs.edge` as t
  cross join unnest(t.metadata) as m
  cross join unnest(m.request) as r
  where (select not use_rollup from mode)
    and t.timestamp >= case
        when @interval = 'minutely' then timestamp_sub(current_timestamp(), interval 60 minute)
        when @interval in ('hourly', '1hr') then timestamp_sub(current_timestamp(), interval 1 hour)
        when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
        else timestamp_sub(current_timestamp(), interval 7 day)
      end
    and regexp_contains(r.url, @project)
  union all
  select t.timestamp as ts, r.path
  from `logs.edge` as t
  cross join unnest(t.metadata) as m
  cross join unnest(m.request) as r
  where (select use_rollup from mode)
    and t.timestamp >= case
        when @interval = 'minutely' then timestamp_sub(current_timestamp(), interval 60 minute)
        when @interval in ('hourly', '1hr') then timestamp_sub(current_timestamp(), interval 1 hour)
        when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
        else timestamp_sub(current_timestamp(), interval 7 day)
      end
    and t.timestamp < timestamp_add(timestamp_trunc(case
        when @interval = 'minutely' then timestamp_sub(current_timestamp(), interval 60 minute)
        when @interval in ('hourly', '1hr') then timestamp_sub(current_timestamp(), interval 1 hour)
        when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
        else timestamp_sub(current_timestamp(), interval 7 day)
      end, minute), interval 1 minute)
    and regexp_contains(r.url, @project)
),
counted as (
  select
    ts,
    if(regexp_contains(path, '/rest'), 1, 0) as rest,
    if(regexp_contains(path, '/storage'), 1, 0) as storage,
    if(regexp_contains(path, '/auth'), 1, 0) as auth,
    if(regexp_contains(path, '/realtime'), 1, 0) as realtime
  from raw_rows
  union all
  select
    x.timestamp as ts,
    x.rest_requests as rest,
    x.storage_requests as storage,
    x.auth_requests as auth,
    x.realtime_requests as realtime
  from `logs.edge_api_minute` as x
  where @interval in ('minutely', 'hourly', '1hr')
    and (select use_rollup from mode)
    and x.timestamp >= timestamp_add(timestamp_trunc(case
        when @interval = 'minutely' then timestamp_sub(current_timestamp(), interval 60 minute)
        when @interval in ('hourly', '1hr') then timestamp_sub(current_timestamp(), interval 1 hour)
        when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
        else timestamp_sub(current_timestamp(), interval 7 day)
      end, minute), interval 1 minute)
    and strpos(x.url_prefix, @project) > 0
  union all
  select
    x.timestamp as ts,
    x.rest_requests as rest,
    x.storage_requests as storage,
    x.auth_requests as auth,
    x.realtime_requests as realtime
  from `logs.edge_api_minute` as x
  where @interval not in ('minutely', 'hourly', '1hr')
    and (select use_rollup from mode)
    and x.timestamp >= (select rollup_start from split)
    and strpos(x.url_prefix, @project) > 0
  union all
  select
    d.timestamp as ts,
    d.rest_requests as rest,
    d.storage_requests as storage,
    d.auth_requests as auth,
    d.realtime_requests as realtime
  from `logs.edge_api_minute_delta` as d
  where (select use_rollup from mode)
    and d.timestamp >= (select rollup_start from split)
    and strpos(d.url_prefix, @project) > 0
)
select
  datetime(
    case
      when @interval in ('minutely', '1hr') then timestamp_trunc(ts, minute)
      when @interval in ('hourly', '1day') then timestamp_trunc(ts, hour)
      else timestamp_trunc(ts, day)
    end,
    'UTC') as timestamp,
  sum(rest) as total_rest_requests,
  sum(storage) as total_storage_requests,
  sum(auth) as total_auth_requests,
  sum(realtime) as total_realtime_requests,
from counted
group by timestamp
order by timestamp asc
