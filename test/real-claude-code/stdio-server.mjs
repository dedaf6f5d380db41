// Claude Code recorder: the stdio MCP server (the same tools as the HTTP one) Claude Code spawns.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildServer } from './servers.mjs';

await buildServer('cc-fixture-stdio').connect(new StdioServerTransport());
