// What Windows, the shell and the launchers print is in the user's own language: each failure is
// read the same in every language the bot meets in help channels. The texts are the systems' own:
// Windows' message 1455, glibc's strsignal for SIGKILL (libc.mo as Debian ships it), Microsoft's
// words for an access violation, and cmd's `pause` prompt.
import { describe, expect, it } from 'vitest';
import { classify, factsOf } from '../helpers/kb.ts';

const LANGUAGES = {
  en: {
    pageFile: 'OSError: The paging file is too small for this operation to complete. (os error 1455)',
    killed: 'Killed',
    jobKilled: './run.sh: line 12:  8612 Killed                  python main.py',
    accessViolation: 'Windows fatal exception: access violation',
    pause: 'Press any key to continue . . .',
  },
  'zh-Hans': {
    pageFile: 'OSError: 页面文件太小，无法完成操作。 (os error 1455)',
    killed: '已杀死',
    jobKilled: './run.sh: 行 12:  8612 已杀死                  python main.py',
    accessViolation: 'Python 进程因内存访问冲突而退出',
    pause: '请按任意键继续. . .',
  },
  'zh-Hant': {
    pageFile: 'safetensors_rust.SafetensorError: 分頁檔太小，無法完成操作。',
    killed: '強制結束',
    jobKilled: './run.sh: 列 12:  8612 強制結束                  python main.py',
    accessViolation: '程式因記憶體存取違規而結束',
    pause: '請按任意鍵繼續 . . .',
  },
  ja: {
    pageFile: 'safetensors_rust.SafetensorError: ページング ファイルが小さすぎるため、この操作を完了できません。 (os error 1455)',
    killed: '強制終了',
    jobKilled: './run.sh: 行 12:  8612 強制終了                  python main.py',
    accessViolation: 'Python プロセスがアクセス違反で終了しました',
    pause: '続行するには何かキーを押してください . . .',
  },
  ko: {
    pageFile: 'safetensors_rust.SafetensorError: 페이징 파일이 너무 작아 이 작업을 완료할 수 없습니다. (os error 1455)',
    killed: '죽었음',
    jobKilled: './run.sh: 줄 12:  8612 죽었음                  python main.py',
    accessViolation: 'Python 프로세스가 액세스 위반으로 종료되었습니다',
    pause: '계속하려면 아무 키나 누르십시오 . . .',
  },
};

/** What the console showed before the failure, the same in every language. */
const before = ['got prompt', 'model weight dtype torch.float16, manual cast: None', 'model_type EPS'].join('\n');

describe.each(Object.entries(LANGUAGES))('system messages in %s', (_lang, say) => {
  it("reads Windows' page file error as system RAM running out", () => {
    const d = classify(`${before}\n${say.pageFile}`);
    expect(d.category).toBe('oom_cpu_ram');
    expect(d.facts.signatures).toContain('pagefile_1455');
  });

  it("reads the shell's notice of a killed process, bare or in its job table, as system RAM running out", () => {
    for (const notice of [say.killed, say.jobKilled]) {
      const d = classify(`${before}\n${notice}`);
      expect(d.category, notice).toBe('oom_cpu_ram');
      expect(d.facts.signatures, notice).toContain('process_killed');
    }
  });

  it('reads an access violation as a crash, not as memory running out', () => {
    const d = classify(`${before}\n${say.accessViolation}`);
    expect(d.category).toBe('not_oom');
    expect(d.facts.signatures).toContain('access_violation');
  });

  it("sees the launcher's pause after a window's last lines", () => {
    expect(factsOf(`${before}\n${say.pause}`).signatures).toContain('silent_exit');
  });
});
