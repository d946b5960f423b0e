/**
 * Report titles for the headline. The build (scripts/build-view.mjs) writes each report
 * tool's catalog title into the bundle as __REPORT_TITLES__; a report the catalog does not
 * list takes the host's tool title when the host names that tool, else its name in words.
 */

declare const __REPORT_TITLES__: Record<string, string> | undefined;

const TITLES: Record<string, string> = typeof __REPORT_TITLES__ === 'object' ? __REPORT_TITLES__ : {};

/** The tool the host says it called (ext-apps host context `toolInfo.tool`). */
export interface HostTool {
  name: string;
  title?: string;
}

export function reportTitle(report: string, hostTool?: HostTool): string {
  if (TITLES[report]) return TITLES[report];
  if (hostTool?.name === report && hostTool.title) return hostTool.title;
  const words = report.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
