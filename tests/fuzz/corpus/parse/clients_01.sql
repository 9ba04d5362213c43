select id, timestamp, event_message, request.method, request.path, response.status_code
from edge_logs
cross join unnest(metadata) as m
cross join unnest(m.request) as request
cross join unnest(m.response) as response
where regexp_contains(event_message, 'GET') and response.status_code >= 400
order by timestamp desc
limit 100