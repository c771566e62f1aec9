// /v1/docs/mcp: how to connect an MCP client to Kino, with configs to copy (stdio and this server's
// own /mcp URL). A static page: no script, so its policy allows none.
export const MCP_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The client configs the page shows, as JSON text (exported for the test that parses them). */
export function mcpClientConfigs(baseUrl: string) {
  const stdio = {
    mcpServers: {
      kino: {
        command: 'node',
        args: ['/path/to/kino/main/cli/kino.mjs', 'mcp', '--out', '/path/to/kino-out'],
      },
    },
  };
  const http = {
    mcpServers: {
      kino: { type: 'http', url: `${baseUrl}/mcp`, headers: { Authorization: 'Bearer <API_TOKEN>' } },
    },
  };
  return {
    stdio: JSON.stringify(stdio, null, 2),
    http: JSON.stringify(http, null, 2),
    claudeCode: `claude mcp add --transport http kino ${baseUrl}/mcp --header "Authorization: Bearer <API_TOKEN>"`,
  };
}

export function mcpPage(baseUrl: string, enabled: boolean): string {
  const configs = mcpClientConfigs(baseUrl);
  const status = enabled
    ? `<p class="on">This server serves MCP at <code>${escapeHtml(baseUrl)}/mcp</code>.</p>`
    : '<p class="off">MCP is off on this server: start it with <code>MCP_ENABLED=true</code> to serve <code>/mcp</code>. The stdio server below needs no server at all.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kino MCP</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1e1b2e}
pre{background:#15121f;color:#f4f1ff;padding:1rem;border-radius:8px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
code{font-family:ui-monospace,monospace}.on{color:#166534}.off{color:#9a3412}
td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
</style></head><body>
<h1>Kino over MCP</h1>
<p>AI agents write, look at, review and render videos through the Model Context Protocol:
<code>render_frame</code> returns a frame as an image, <code>review_video</code> the findings with remedies,
<code>render_video</code> a verified file. <a href="/v1/docs">API reference</a> · <a href="/v1/docs/llms.txt">llms.txt</a></p>
${status}
<h2>On your machine (stdio)</h2>
<p>The client starts <code>kino mcp</code>; renders go to <code>--out</code>. No server, no token.</p>
<pre><code>${escapeHtml(configs.stdio)}</code></pre>
<h2>This server (Streamable HTTP)</h2>
<p>The same tools; renders are jobs of this API with signed download links. Use this server's <code>API_TOKEN</code>.</p>
<pre><code>${escapeHtml(configs.http)}</code></pre>
<p>Claude Code:</p>
<pre><code>${escapeHtml(configs.claudeCode)}</code></pre>
<h2>Tools</h2>
<table>
<tr><th>look and check</th><td><code>render_frame</code>, <code>review_video</code>, <code>validate_code</code></td></tr>
<tr><th>render</th><td><code>render_video</code>, <code>render_composition</code>, <code>generate_video</code>, <code>edit_video</code>, <code>get_render</code>, <code>cancel_render</code></td></tr>
<tr><th>write</th><td><code>get_video_spec_schema</code>, <code>spec_to_code</code>, <code>list_docs</code>, <code>search_docs</code>, <code>get_doc</code></td></tr>
</table>
<p>Protocol 2026-07-28, and 2025-era clients with sessions. Start with <code>get_doc "mcp/workflow"</code>.</p>
</body></html>
`;
}
