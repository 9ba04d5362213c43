select timestamp_trunc(t.timestamp, minute) as timestamp, countif(response.status_code >= 500) as error_count, countif(response.status_code < 500) as ok_count,
from edge_logs t
cross join unnest(metadata) as m
cross join unnest(m.response) as response
group by timestamp
order by timestamp asc