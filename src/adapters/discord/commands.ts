// The application commands, defined once: the register script uploads them and the bot and the
// tests route on the same names.
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  ContextMenuCommandBuilder,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { COMMAND_TEXT as T } from './strings.ts';

export const COMMAND = {
  diagnose: 'comfyoom',
  stats: 'comfyoom-stats',
  contextMenu: T.contextMenu.en,
} as const;

/**
 * What the bot needs in the channels it serves: read and answer there, grow a thread from its
 * reply and post in it, read the message a user replies to, attach case summaries, show embeds.
 */
export const BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.EmbedLinks;

/** Discord allows up to 6000 characters in a string option; longer logs go through the modal or a file. */
export const LOG_OPTION_MAX = 6000;

// Cases need a channel to live in (a thread or the channel), so commands are server-only.
const guildOnly = <B extends { setContexts(...c: InteractionContextType[]): B; setIntegrationTypes(...t: ApplicationIntegrationType[]): B }>(b: B) =>
  b.setContexts(InteractionContextType.Guild).setIntegrationTypes(ApplicationIntegrationType.GuildInstall);

export function commandDefinitions(): RESTPostAPIApplicationCommandsJSONBody[] {
  const diagnose = guildOnly(new SlashCommandBuilder())
    .setName(COMMAND.diagnose)
    .setDescription(T.diagnose.en)
    .setDescriptionLocalizations({ 'zh-CN': T.diagnose.zh, 'zh-TW': T.diagnose.zh })
    .addStringOption((o) =>
      o
        .setName('log')
        .setDescription(T.log.en)
        .setDescriptionLocalizations({ 'zh-CN': T.log.zh, 'zh-TW': T.log.zh })
        .setMaxLength(LOG_OPTION_MAX),
    )
    .addAttachmentOption((o) => o.setName('file').setDescription(T.file.en).setDescriptionLocalizations({ 'zh-CN': T.file.zh, 'zh-TW': T.file.zh }))
    .addStringOption((o) =>
      o
        .setName('language')
        .setDescription(T.language.en)
        .setDescriptionLocalizations({ 'zh-CN': T.language.zh, 'zh-TW': T.language.zh })
        .addChoices({ name: 'English', value: 'en' }, { name: '简体中文', value: 'zh' }),
    );

  const stats = guildOnly(new SlashCommandBuilder())
    .setName(COMMAND.stats)
    .setDescription(T.stats.en)
    .setDescriptionLocalizations({ 'zh-CN': T.stats.zh, 'zh-TW': T.stats.zh })
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageMessages)
    .addStringOption((o) => o.setName('since').setDescription(T.since.en).setDescriptionLocalizations({ 'zh-CN': T.since.zh, 'zh-TW': T.since.zh }).setMaxLength(10));

  const contextMenu = guildOnly(new ContextMenuCommandBuilder())
    .setName(COMMAND.contextMenu)
    .setNameLocalizations({ 'zh-CN': T.contextMenu.zh, 'zh-TW': T.contextMenu.zh })
    .setType(ApplicationCommandType.Message);

  return [diagnose.toJSON(), stats.toJSON(), contextMenu.toJSON()];
}
