/**
 * A minimal MCP Apps host for the browser test, bundled into the test's host page: an
 * AppBridge that loads the view in a sandboxed iframe, answers its tool calls through
 * `window.mcpCallTool` (which the test wires to a real MCP client of the built server), and
 * hands it a tool's input and result as a host does.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

interface HostWindow {
  mcpCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult>;
  startHost(opts: {
    html: string;
    toolInput: Record<string, unknown>;
    toolResult: CallToolResult;
    theme: 'light' | 'dark';
    /** How the host shows the view: in full (default here), or inline in the conversation. */
    displayMode?: 'inline' | 'fullscreen';
  }): Promise<void>;
  setTheme(theme: 'light' | 'dark'): void;
  toolCalls: Array<{ name: string; arguments?: Record<string, unknown> }>;
}

const w = window as unknown as HostWindow;
let bridge: AppBridge | undefined;
let mode: 'inline' | 'fullscreen' = 'fullscreen';
const availableDisplayModes: Array<'inline' | 'fullscreen'> = ['inline', 'fullscreen'];
w.toolCalls = [];

w.startHost = async ({ html, toolInput, toolResult, theme, displayMode = 'fullscreen' }) => {
  mode = displayMode;
  const iframe = document.createElement('iframe');
  // As hosts do: scripts run, but the view gets an opaque origin (no access to the host).
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.id = 'view';
  document.body.append(iframe);
  bridge = new AppBridge(
    null,
    { name: 'browser-test-host', version: '1.0.0' },
    { serverTools: {} },
    { hostContext: { theme, displayMode: mode, availableDisplayModes } },
  );
  bridge.oncalltool = async (params) => {
    w.toolCalls.push({ name: params.name, arguments: params.arguments });
    return w.mcpCallTool({ name: params.name, arguments: params.arguments });
  };
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => resolve();
  });
  // The WindowProxy outlives the navigation to srcdoc: listen before the view starts.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
};

w.setTheme = (theme) => bridge?.setHostContext({ theme, displayMode: mode, availableDisplayModes });
