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
  // Discord commands take options or subcommands, not both: forget has a command of its own.
  forget: 'comfyoom-forget',
  relabel: 'comfyoom-relabel',
  contextMenu: T.contextMenu.en,
} as const;

/**
 * What the bot needs in the channels it serves: read and answer there, grow a thread from its
 * reply and post in it, read the message a user replies to, attach case summaries, show embeds,
 * and close the loop on a resolved case (archive its thread, tag a forum post "Solved").
 */
export const BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.ManageThreads |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.EmbedLinks;

/** Discord allows up to 6000 characters in a string option; longer logs go through the modal or a file. */
export const LOG_OPTION_MAX = 6000;

type Text = { en: string; zh: string };
/** English, with the same text for zh-CN and zh-TW (the bot answers both in Simplified Chinese). */
const zh = (t: Text) => ({ 'zh-CN': t.zh, 'zh-TW': t.zh });

/** Servers, and the user's DM with the bot (the same flow, the case runs in the DM). */
const everywhere = <B extends { setContexts(...c: InteractionContextType[]): B; setIntegrationTypes(...t: ApplicationIntegrationType[]): B }>(b: B) =>
  b.setContexts(InteractionContextType.Guild, InteractionContextType.BotDM).setIntegrationTypes(ApplicationIntegrationType.GuildInstall);

/** A command on a server's own cases: in servers only, for members who can manage messages. */
const forModerators = (name: string, localName: Text, description: Text) =>
  new SlashCommandBuilder()
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setName(name)
    .setNameLocalizations(zh(localName))
    .setDescription(description.en)
    .setDescriptionLocalizations(zh(description))
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageMessages);

export function commandDefinitions(): RESTPostAPIApplicationCommandsJSONBody[] {
  const diagnose = everywhere(new SlashCommandBuilder())
    .setName(COMMAND.diagnose)
    .setNameLocalizations(zh(T.diagnoseName))
    .setDescription(T.diagnose.en)
    .setDescriptionLocalizations(zh(T.diagnose))
    .addStringOption((o) => o.setName('log').setNameLocalizations(zh(T.logName)).setDescription(T.log.en).setDescriptionLocalizations(zh(T.log)).setMaxLength(LOG_OPTION_MAX))
    .addAttachmentOption((o) => o.setName('file').setNameLocalizations(zh(T.fileName)).setDescription(T.file.en).setDescriptionLocalizations(zh(T.file)))
    .addStringOption((o) =>
      o
        .setName('language')
        .setNameLocalizations(zh(T.languageName))
        .setDescription(T.language.en)
        .setDescriptionLocalizations(zh(T.language))
        .addChoices({ name: 'English', value: 'en', name_localizations: zh(T.english) }, { name: '简体中文', value: 'zh', name_localizations: zh(T.chinese) }),
    );

  // Stats read a server's cases, so they exist in servers only.
  const stats = forModerators(COMMAND.stats, T.statsName, T.stats)
    .addStringOption((o) => o.setName('since').setNameLocalizations(zh(T.sinceName)).setDescription(T.since.en).setDescriptionLocalizations(zh(T.since)).setMaxLength(10))
    .addBooleanOption((o) => o.setName('all').setNameLocalizations(zh(T.allName)).setDescription(T.all.en).setDescriptionLocalizations(zh(T.all)));

  const forget = everywhere(new SlashCommandBuilder())
    .setName(COMMAND.forget)
    .setNameLocalizations(zh(T.forgetName))
    .setDescription(T.forget.en)
    .setDescriptionLocalizations(zh(T.forget));

  // A correction of a server's cases, by its moderators: in servers only, like stats.
  const relabel = forModerators(COMMAND.relabel, T.relabelName, T.relabel)
    .addStringOption((o) => o.setName('case').setNameLocalizations(zh(T.caseName)).setDescription(T.caseOption.en).setDescriptionLocalizations(zh(T.caseOption)).setRequired(true).setMaxLength(40))
    .addStringOption((o) => o.setName('entry').setNameLocalizations(zh(T.entryName)).setDescription(T.entryOption.en).setDescriptionLocalizations(zh(T.entryOption)).setRequired(true).setMaxLength(80));

  const contextMenu = everywhere(new ContextMenuCommandBuilder())
    .setName(COMMAND.contextMenu)
    .setNameLocalizations(zh(T.contextMenu))
    .setType(ApplicationCommandType.Message);

  return [diagnose.toJSON(), stats.toJSON(), forget.toJSON(), relabel.toJSON(), contextMenu.toJSON()];
}
