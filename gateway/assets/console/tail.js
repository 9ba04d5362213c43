// The live tail (GET /api/logs/tail, Server-Sent Events) read with fetch and a stream reader,
// since EventSource cannot send the X-API-Key header.
import { apiKey, queryString, errorOf } from './api.js';

// Parses SSE text: calls onMessage(event, data) for each complete message; returns the rest.
export function parseSse(buffer, onMessage) {
  let at;
  while ((at = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, at);
    buffer = buffer.slice(at + 2);
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;  // heartbeat
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) onMessage(event, data.join('\n'));
  }
  return buffer;
}

// Starts a tail; handlers: onEvent(event), onDropped(n), onError(answer-like), onEnd(reason).
// Returns a function that stops it.
export function startTail({ source, lql }, handlers) {
  const controller = new AbortController();
  (async () => {
    let response;
    try {
      response = await fetch('/api/logs/tail' + queryString({ source, lql }), {
        headers: { 'X-API-Key': apiKey(), Accept: 'text/event-stream' },
        signal: controller.signal,
      });
    } catch (err) {
      if (err.name !== 'AbortError') handlers.onError({ status: 0, body: { error: { message: err.message } } });
      return;
    }
    if (!response.ok) {
      const text = await response.text();
      let body = text;
      try { body = JSON.parse(text); } catch { /* shown as text */ }
      handlers.onError({ status: response.status, body });
      return;
    }
    handlers.onOpen?.();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer = parseSse(buffer + value.replace(/\r\n/g, '\n'), (event, data) => {
          let parsed;
          try { parsed = JSON.parse(data); } catch { return; }
          if (event === 'event') handlers.onEvent(parsed);
          else if (event === 'dropped') handlers.onDropped?.(parsed.dropped);
          else if (event === 'end') handlers.onEnd?.(parsed.reason);
          else if (event === 'replay_error') handlers.onError({ status: 500, body: { error: { message: 'the replay failed: ' + (parsed.message || data) } } });
        });
      }
      handlers.onEnd?.('closed');
    } catch (err) {
      if (err.name !== 'AbortError') handlers.onEnd?.(err.message);
    }
  })();
  return () => controller.abort();
}

export { errorOf };
