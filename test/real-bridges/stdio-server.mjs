// Bridges audit: the SDK 1.32.2 server of tools.mjs over stdio, the child process supergateway spawns.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildSdkServer } from './tools.mjs';

await buildSdkServer('bridges-stdio-server').connect(new StdioServerTransport());
