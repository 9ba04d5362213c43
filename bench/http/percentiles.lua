-- wrk script: after the run, one line with the latency percentiles --latency leaves out
-- (p99.9 and the maximum), in milliseconds; wrk keeps microseconds.
done = function(summary, latency, requests)
  local ms = function(us) return us / 1000 end
  io.write(string.format("percentiles_ms p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f\n",
    ms(latency:percentile(50)), ms(latency:percentile(90)), ms(latency:percentile(99)),
    ms(latency:percentile(99.9)), ms(latency.max)))
end
