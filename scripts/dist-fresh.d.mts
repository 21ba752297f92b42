/** Whether dist/ is as new as every source file under `root` (the package's folder). */
export function distIsFresh(root: string): boolean;
