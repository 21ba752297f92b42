// Every fixed string the bot shows, in each language it speaks. Kb text carries its own translations.
import type { Text } from '../kb/schema.ts';
import { ownWords, scriptLang, wordsLang, writesEnglish } from './words.ts';

/** English, Simplified Chinese, Traditional Chinese, Japanese, Korean. */
export const LANGS = ['en', 'zh', 'zh-Hant', 'ja', 'ko'] as const;
export type Lang = (typeof LANGS)[number];
export const isLang = (v: unknown): v is Lang => (LANGS as readonly unknown[]).includes(v);

export const t = (text: Text, lang: Lang) => text[lang];
/** A text made the same way in every language. */
export const inEvery = (make: (lang: Lang) => string): Text => Object.fromEntries(LANGS.map((l) => [l, make(l)])) as Text;

/** Languages written without spaces between words, with full-width punctuation. */
export const FULL_WIDTH: ReadonlySet<Lang> = new Set(['zh', 'zh-Hant', 'ja']);
/** "Label: value", with a full-width colon (no space after it) where the language has one. */
export const labelled = (label: string, value: string, lang: Lang) => (FULL_WIDTH.has(lang) ? `${label}：${value}` : `${label}: ${value}`);
/** A heading ending in a colon, full-width where the language has one. */
export const heading = (label: string, lang: Lang) => `${label}${FULL_WIDTH.has(lang) ? '：' : ':'}`;
/** Items of a list inside a sentence. */
export const listed = (items: string[], lang: Lang) => items.join(lang === 'ja' ? '、' : FULL_WIDTH.has(lang) ? '；' : '; ');
/** A remark in parentheses after a word: full-width and unspaced where the language has them. */
export const aside = (remark: string, lang: Lang) => (FULL_WIDTH.has(lang) ? `（${remark}）` : ` (${remark})`);

export { wordsLang, writesEnglish };


/** A platform's locale for a user or a server (Discord's zh-CN, zh-TW, ja, ko; Slack's ja-JP, zh-TW) as a language the bot speaks. */
export function localeLang(locale: string | undefined): Lang | undefined {
  const l = locale?.toLowerCase().replace('_', '-');
  if (!l) return undefined;
  if (/^zh-(?:tw|hk|mo|hant)/.test(l)) return 'zh-Hant';
  if (l.startsWith('zh')) return 'zh';
  if (l.startsWith('ja')) return 'ja';
  if (l.startsWith('ko')) return 'ko';
  return l.startsWith('en') ? 'en' : undefined;
}

/**
 * The language to answer a message in: the script of its writer's own words (not the log's), then
 * their platform locale when it is a language the bot speaks, then English sentences of theirs,
 * then `fallback` (the place's default), then the language the log's own messages are in, then English.
 */
export function langFor(locale: string | undefined, text: string, fallback?: Lang): Lang {
  const words = ownWords(text);
  return scriptLang(words) ?? localeLang(locale) ?? (writesEnglish(words) ? 'en' : undefined) ?? fallback ?? scriptLang(text) ?? 'en';
}

/** The language of a message with nothing else to go by (the command line). */
export const detectLang = (text: string): Lang => langFor(undefined, text);

export const M = {
  diagnosis: { en: 'Diagnosis', zh: '诊断', ja: '診断', ko: '진단', 'zh-Hant': '診斷' },
  whatHappened: { en: 'What happened', zh: '发生了什么', ja: '何が起きたか', ko: '발생한 문제', 'zh-Hant': '發生了什麼' },
  whatTheLogSays: { en: 'What your log shows', zh: '日志里的信息', ja: 'ログからわかること', ko: '로그에서 확인한 내용', 'zh-Hant': '日誌裡的資訊' },
  evidence: { en: 'Evidence', zh: '依据', ja: '根拠', ko: '근거', 'zh-Hant': '依據' },
  plan: { en: 'Fix plan (one step at a time; check each before the next)', zh: '修复步骤（一次只做一步，确认结果后再做下一步）', ja: '解決プラン（1 ステップずつ。結果を確認してから次へ）', ko: '해결 계획 (한 번에 한 단계씩, 다음 단계 전에 결과를 확인하세요)', 'zh-Hant': '修復步驟（一次只做一步，確認結果後再做下一步）' },
  why: { en: 'Why', zh: '原因', ja: '理由', ko: '이유', 'zh-Hant': '原因' },
  verify: { en: 'How to check', zh: '如何确认', ja: '確認方法', ko: '확인 방법', 'zh-Hant': '如何確認' },
  skipped: { en: 'Skipped for your setup', zh: '根据你的环境跳过', ja: 'あなたの環境では省略', ko: '현재 환경에 맞지 않아 건너뜀', 'zh-Hant': '根據你的環境跳過' },
  moreIdeas: { en: 'More ideas, if none of these helps (less likely for your setup)', zh: '更多办法（以上都无效时再试，对你的环境可能性较小）', ja: 'どれも効かないときの追加案（あなたの環境では可能性は低め）', ko: '추가 방법 (위 방법이 모두 효과가 없을 때, 현재 환경에서는 가능성이 낮음)', 'zh-Hant': '更多辦法（以上都無效時再試，對你的環境可能性較小）' },
  alreadyApplied: { en: 'already applied or useless with your setup', zh: '已在使用，或在你的环境下无效', ja: '適用済み、またはあなたの環境では効果なし', ko: '이미 적용됐거나 현재 환경에서는 효과 없음', 'zh-Hant': '已在使用，或在你的環境下無效' },
  doesNotApply: { en: 'does not apply to your setup', zh: '不适用于你的环境', ja: 'あなたの環境には当てはまらない', ko: '현재 환경에는 해당 없음', 'zh-Hant': '不適用於你的環境' },
  lowConfidence: {
    en: 'I am not sure about this reading. If it looks wrong, paste the full console log as text (not a screenshot).',
    zh: '我对这个判断没有把握。如果看起来不对，请以文字形式粘贴完整的控制台日志（不要截图）。', ja: 'この読み取りには自信がありません。違っているようなら、コンソールログ全体をテキストで貼り付けてください（スクリーンショットではなく）。', ko: '이 판독 결과는 확실하지 않아요. 틀린 것 같으면 전체 콘솔 로그를 텍스트로 붙여 넣어 주세요(스크린샷 말고요).', 'zh-Hant': '我對這個判斷沒有把握。如果看起來不對，請以文字形式貼上完整的控制台日誌（不要截圖）。',
  },
  sources: { en: 'Sources', zh: '来源', ja: '出典', ko: '출처', 'zh-Hant': '來源' },
  truncated: { en: 'Your paste was very long; I read its beginning and its end.', zh: '你粘贴的内容太长，我只读取了开头和结尾部分。', ja: '貼り付けられた内容がとても長いため、最初と最後の部分だけを読みました。', ko: '붙여 넣은 내용이 너무 길어서 앞부분과 뒷부분만 읽었어요.', 'zh-Hant': '你貼上的內容太長，我只讀取了開頭和結尾部分。' },
  otherApp: {
    en: 'This log comes from {app}, not ComfyUI. The steps below are written for ComfyUI: {app} has launch options and settings of its own, so take the idea of each step, not its exact flag or node.',
    zh: '这份日志来自 {app}，不是 ComfyUI。下面的步骤是按 ComfyUI 写的：{app} 有自己的启动参数和设置，请参考每一步的思路，不要照搬其中的参数或节点。', ja: 'このログは ComfyUI ではなく {app} のものです。以下のステップは ComfyUI 向けに書かれています。{app} には独自の起動オプションや設定があるので、各ステップのオプションやノードをそのまま使うのではなく、考え方を参考にしてください。', ko: '이 로그는 ComfyUI가 아니라 {app}에서 나온 거예요. 아래 단계는 ComfyUI 기준으로 작성됐고 {app}에는 자체 실행 옵션과 설정이 있으니, 각 단계의 옵션이나 노드를 그대로 따르기보다는 방법의 취지를 참고하세요.', 'zh-Hant': '這份日誌來自 {app}，不是 ComfyUI。下面的步驟是按 ComfyUI 寫的：{app} 有自己的啟動參數和設定，請參考每一步的思路，不要照搬其中的參數或節點。',
  },
  effort: { en: 'effort', zh: '工作量', ja: '手間', ko: '작업량', 'zh-Hant': '工作量' },
  effortLevel: {
    low: { en: 'low', zh: '低', ja: '小', ko: '낮음', 'zh-Hant': '低' },
    medium: { en: 'medium', zh: '中', ja: '中', ko: '보통', 'zh-Hant': '中' },
    high: { en: 'high', zh: '高', ja: '大', ko: '높음', 'zh-Hant': '高' },
  },
  facts: {
    oom: { en: 'Memory that ran out', zh: '耗尽的内存', ja: '不足したメモリ', ko: '부족해진 메모리', 'zh-Hant': '耗盡的記憶體' },
    stage: { en: 'Failing stage', zh: '出错阶段', ja: '失敗した段階', ko: '실패한 단계', 'zh-Hant': '出錯階段' },
    node: { en: 'Failing node', zh: '出错节点', ja: '失敗したノード', ko: '실패한 노드', 'zh-Hant': '出錯節點' },
    gpuName: { en: 'GPU', zh: '显卡', ja: 'GPU', ko: 'GPU', 'zh-Hant': '顯示卡' },
    vramGb: { en: 'VRAM', zh: '显存', ja: 'VRAM', ko: 'VRAM', 'zh-Hant': '視訊記憶體' },
    ramGb: { en: 'System RAM', zh: '系统内存', ja: 'システム RAM', ko: '시스템 RAM', 'zh-Hant': '系統記憶體' },
    os: { en: 'OS', zh: '系统', ja: 'OS', ko: 'OS', 'zh-Hant': '系統' },
    backend: { en: 'Backend', zh: '后端', ja: 'バックエンド', ko: '백엔드', 'zh-Hant': '後端' },
    requestedGb: { en: 'Tried to allocate', zh: '尝试分配', ja: '確保しようとした量', ko: '할당 시도량', 'zh-Hant': '嘗試分配' },
    freeGb: { en: 'Free at the time', zh: '当时空闲', ja: 'その時点の空き', ko: '당시 여유 메모리', 'zh-Hant': '當時空閒' },
    totalGb: { en: 'Device total', zh: '设备总量', ja: 'デバイスの総容量', ko: '장치 전체 용량', 'zh-Hant': '裝置總量' },
    reservedUnallocatedGb: { en: 'Reserved by PyTorch but unused', zh: 'PyTorch 已保留但未使用', ja: 'PyTorch が予約済みで未使用', ko: 'PyTorch가 예약했지만 사용하지 않는 메모리', 'zh-Hant': 'PyTorch 已保留但未使用' },
    flags: { en: 'Launch flags', zh: '启动参数', ja: '起動オプション', ko: '실행 옵션', 'zh-Hant': '啟動參數' },
    attention: { en: 'Attention', zh: '注意力实现', ja: 'アテンション', ko: '어텐션', 'zh-Hant': '注意力實現' },
    dynamicVram: { en: 'Dynamic VRAM', zh: '动态显存 (Dynamic VRAM)', ja: 'Dynamic VRAM', ko: 'Dynamic VRAM', 'zh-Hant': '動態視訊記憶體 (Dynamic VRAM)' },
    torchVersion: { en: 'PyTorch', zh: 'PyTorch', ja: 'PyTorch', ko: 'PyTorch', 'zh-Hant': 'PyTorch' },
    comfyuiVersion: { en: 'ComfyUI', zh: 'ComfyUI', ja: 'ComfyUI', ko: 'ComfyUI', 'zh-Hant': 'ComfyUI' },
    app: { en: 'App', zh: '程序', ja: 'アプリ', ko: '앱', 'zh-Hant': '程式' },
    install: { en: 'Install', zh: '安装方式', ja: 'インストール方法', ko: '설치 방식', 'zh-Hant': '安裝方式' },
    workflow: { en: 'Workflow renders', zh: '工作流出图', ja: 'ワークフローの生成サイズ', ko: '워크플로 렌더링', 'zh-Hant': '工作流出圖' },
    workflowModels: { en: 'Workflow models', zh: '工作流模型', ja: 'ワークフローのモデル', ko: '워크플로 모델', 'zh-Hant': '工作流模型' },
  },
  values: {
    cuda: { en: 'GPU memory (CUDA)', zh: '显存 (CUDA)', ja: 'GPU メモリ（CUDA）', ko: 'GPU 메모리 (CUDA)', 'zh-Hant': '視訊記憶體 (CUDA)' },
    hip: { en: 'GPU memory (AMD HIP)', zh: '显存 (AMD HIP)', ja: 'GPU メモリ（AMD HIP）', ko: 'GPU 메모리 (AMD HIP)', 'zh-Hant': '視訊記憶體 (AMD HIP)' },
    mps: { en: 'unified memory (Apple MPS)', zh: '统一内存 (Apple MPS)', ja: 'ユニファイドメモリ（Apple MPS）', ko: '통합 메모리 (Apple MPS)', 'zh-Hant': '統一記憶體 (Apple MPS)' },
    directml: { en: 'GPU memory (DirectML)', zh: '显存 (DirectML)', ja: 'GPU メモリ（DirectML）', ko: 'GPU 메모리 (DirectML)', 'zh-Hant': '視訊記憶體 (DirectML)' },
    xpu: { en: 'GPU memory (Intel XPU)', zh: '显存 (Intel XPU)', ja: 'GPU メモリ（Intel XPU）', ko: 'GPU 메모리 (Intel XPU)', 'zh-Hant': '視訊記憶體 (Intel XPU)' },
    ram: { en: 'system RAM', zh: '系统内存', ja: 'システム RAM', ko: '시스템 RAM', 'zh-Hant': '系統記憶體' },
    on: { en: 'on', zh: '开启', ja: 'オン', ko: '켜짐', 'zh-Hant': '開啟' },
    off: { en: 'off', zh: '关闭', ja: 'オフ', ko: '꺼짐', 'zh-Hant': '關閉' },
    frames: { en: 'frames', zh: '帧', ja: 'フレーム', ko: '프레임', 'zh-Hant': '幀' },
    tiledVae: { en: 'VAE Decode (Tiled)', zh: 'VAE Decode (Tiled) 分块解码', ja: 'VAE Decode (Tiled)', ko: 'VAE Decode (Tiled)', 'zh-Hant': 'VAE Decode (Tiled) 分塊解碼' },
    plainVae: { en: 'plain VAE Decode', zh: '普通 VAE Decode', ja: '通常の VAE Decode', ko: '일반 VAE Decode', 'zh-Hant': '普通 VAE Decode' },
  },
  /** What the facts' own words (a stage, an install) read as. */
  stage: {
    sampling: { en: 'sampling', zh: '采样', ja: 'サンプリング', ko: '샘플링', 'zh-Hant': '取樣' },
    vae_decode: { en: 'VAE decode', zh: 'VAE 解码', ja: 'VAE デコード', ko: 'VAE 디코딩', 'zh-Hant': 'VAE 解碼' },
    vae_encode: { en: 'VAE encode', zh: 'VAE 编码', ja: 'VAE エンコード', ko: 'VAE 인코딩', 'zh-Hant': 'VAE 編碼' },
    model_load: { en: 'loading the model', zh: '加载模型', ja: 'モデルの読み込み', ko: '모델 로딩', 'zh-Hant': '載入模型' },
    text_encoder: { en: 'text encoder', zh: '文本编码器', ja: 'テキストエンコーダー', ko: '텍스트 인코더', 'zh-Hant': '文本編碼器' },
    upscale: { en: 'upscaling', zh: '放大', ja: 'アップスケール', ko: '업스케일', 'zh-Hant': '放大' },
    detector: { en: 'detection or segmentation', zh: '检测或分割', ja: '検出またはセグメンテーション', ko: '검출 또는 세그멘테이션', 'zh-Hant': '檢測或分割' },
    training: { en: 'training', zh: '训练', ja: '学習', ko: '학습', 'zh-Hant': '訓練' },
    other: { en: 'another node', zh: '其他节点', ja: 'その他のノード', ko: '다른 노드', 'zh-Hant': '其他節點' },
  },
  install: {
    portable: { en: 'Windows portable', zh: 'Windows 便携版', ja: 'Windows ポータブル版', ko: 'Windows 포터블', 'zh-Hant': 'Windows 便攜版' },
    desktop: { en: 'ComfyUI Desktop', zh: 'ComfyUI 桌面版', ja: 'ComfyUI デスクトップ版', ko: 'ComfyUI 데스크톱', 'zh-Hant': 'ComfyUI 桌面版' },
    docker: { en: 'Docker', zh: 'Docker', ja: 'Docker', ko: 'Docker', 'zh-Hant': 'Docker' },
    manual: { en: 'manual (venv)', zh: '手动安装（venv）', ja: '手動インストール（venv）', ko: '수동 설치 (venv)', 'zh-Hant': '手動安裝（venv）' },
    launcher: { en: 'a one-click bundle with its own launcher (秋叶/绘世)', zh: '自带启动器的整合包（秋叶/绘世）', ja: '専用ランチャー付きのワンクリック統合パッケージ（秋叶/绘世）', ko: '자체 런처가 있는 원클릭 통합 패키지 (秋叶/绘世)', 'zh-Hant': '自帶啟動器的整合包（秋葉/繪世）' },
  },
} as const satisfies Record<string, unknown>;
