-- usage.api-counts: requests per time bucket per API area (service spec §2.4, §4.3).
-- The window and the bucket follow @interval; @project is a regular expression matched against
-- the request URL. A request whose path matches several areas counts in each of them.
-- Interval values: minutely (last 60 minutes, per minute), hourly (last hour, per hour),
-- daily (last 7 days, per day), and the values newer clients send: 1hr (last hour, per minute),
-- 1day (last day, per hour), 7day (last 7 days, per day).
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
)
select
  timestamp,
  countif(regexp_contains(path, '/rest')) as total_rest_requests,
  countif(regexp_contains(path, '/storage')) as total_storage_requests,
  countif(regexp_contains(path, '/auth')) as total_auth_requests,
  countif(regexp_contains(path, '/realtime')) as total_realtime_requests,
from requests
group by timestamp
order by timestamp asc
