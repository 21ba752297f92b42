import type { FactName } from '../../kb/schema.ts';

export type OomKind = 'cuda' | 'hip' | 'mps' | 'directml' | 'xpu' | 'ram';
export type Stage =
  | 'sampling'
  | 'vae_decode'
  | 'vae_encode'
  | 'model_load'
  | 'text_encoder'
  | 'upscale'
  | 'detector'
  | 'training'
  | 'other';

/** Where a fact was read: the (normalized) line and how much it can be trusted (0..1). */
export interface Evidence {
  line: number;
  text: string;
  source: string;
  strength: number;
}

export interface ExceptionInfo {
  type?: string;
  message: string;
  line: number;
}

/** Everything the classifier read from a paste. Absent means "the paste does not say". */
export interface Facts {
  oom?: OomKind;
  signatures: string[];
  primarySignature?: string;
  exception?: ExceptionInfo;
  stage?: Stage;
  node?: string;
  backend?: 'cuda' | 'rocm' | 'zluda' | 'mps' | 'directml' | 'xpu' | 'cpu';
  gpuVendor?: 'nvidia' | 'amd' | 'intel' | 'apple';
  gpuName?: string;
  /** An NVIDIA card older than RTX 20 (Pascal and before), which CUDA 13.0 builds of PyTorch no longer support. */
  gpuBeforeTuring?: boolean;
  os?: 'windows' | 'linux' | 'macos';
  app?: string;
  install?: 'portable' | 'desktop' | 'manual' | 'docker' | 'launcher';
  flags: string[];
  attention?: 'sage' | 'flash' | 'xformers' | 'pytorch' | 'split' | 'quad';
  dynamicVram?: boolean;
  vramGb?: number;
  ramGb?: number;
  requestedGb?: number;
  totalGb?: number;
  freeGb?: number;
  allocatedGb?: number;
  reservedUnallocatedGb?: number;
  freeShare?: number;
  requestFitsFree?: boolean;
  comfyuiVersion?: string;
  torchVersion?: string;
  /** The arguments after main.py on the launch line the paste shows (empty: started with none). */
  launchArgs?: string[];
  /** Flags ComfyUI's argparse refused. */
  rejectedFlags?: string[];
  videoWorkflow?: boolean;
  recoveredVaeTiling?: boolean;
  /** The kb/models.yaml family of the diffusion model ComfyUI loaded. */
  modelFamily?: string;
  workflowWidth?: number;
  workflowHeight?: number;
  workflowBatch?: number;
  workflowFrames?: number;
  workflowModels?: string[];
  workflowTiledVae?: boolean;
  suggestedWidth?: number;
  suggestedHeight?: number;
  suggestedFrames?: number;
  /** Per fact, the line it was read from. */
  evidence: Partial<Record<FactName | 'exception', Evidence>>;
}

export type FactValue = Facts[keyof Facts];
