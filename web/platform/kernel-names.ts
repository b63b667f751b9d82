/**
 * How the workbench names a built-in's kernel module: the build rewrites each `kernelModule` (a
 * file URL in Node) to `crucible-kernel:<folder>` (web/vite.config.ts), and the page's registry
 * finds the module by that name (web/platform/rule-systems.ts). One place for both.
 */
export const kernelModuleName = (folder: string): string => `crucible-kernel:${folder}`;
