// The application commands, defined once: the register script uploads them and the bot and the
// tests route on the same names.
import {
  ApplicationCommandType,
  ChannelType,
  ApplicationIntegrationType,
  ContextMenuCommandBuilder,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type SlashCommandSubcommandGroupBuilder,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { COMMAND_TEXT as T } from './strings.ts';
import type { Lang } from '../../i18n/messages.ts';

export const COMMAND = {
  diagnose: 'comfyoom',
  stats: 'comfyoom-stats',
  // Discord commands take options or subcommands, not both: forget has a command of its own.
  forget: 'comfyoom-forget',
  relabel: 'comfyoom-relabel',
  config: 'comfyoom-config',
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

type Text = Record<Lang, string>;
/** The other languages' texts, under the Discord locales that ask for them. */
const localized = (t: Text) => ({ 'zh-CN': t.zh, 'zh-TW': t['zh-Hant'], ja: t.ja, ko: t.ko });
/** The languages a user may choose besides English, each named in its own words (as language pickers do). */
const OWN_NAMES = [
  { name: '简体中文', value: 'zh' },
  { name: '繁體中文', value: 'zh-Hant' },
  { name: '日本語', value: 'ja' },
  { name: '한국어', value: 'ko' },
] as const;

/** Servers, and the user's DM with the bot (the same flow, the case runs in the DM). */
const everywhere = <B extends { setContexts(...c: InteractionContextType[]): B; setIntegrationTypes(...t: ApplicationIntegrationType[]): B }>(b: B) =>
  b.setContexts(InteractionContextType.Guild, InteractionContextType.BotDM).setIntegrationTypes(ApplicationIntegrationType.GuildInstall);

/** A command on a server's own cases: in servers only, for members who can manage messages. */
const forModerators = (name: string, localName: Text, description: Text) =>
  new SlashCommandBuilder()
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setName(name)
    .setNameLocalizations(localized(localName))
    .setDescription(description.en)
    .setDescriptionLocalizations(localized(description))
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageMessages);

export function commandDefinitions(): RESTPostAPIApplicationCommandsJSONBody[] {
  const diagnose = everywhere(new SlashCommandBuilder())
    .setName(COMMAND.diagnose)
    .setNameLocalizations(localized(T.diagnoseName))
    .setDescription(T.diagnose.en)
    .setDescriptionLocalizations(localized(T.diagnose))
    .addStringOption((o) => o.setName('log').setNameLocalizations(localized(T.logName)).setDescription(T.log.en).setDescriptionLocalizations(localized(T.log)).setMaxLength(LOG_OPTION_MAX))
    .addAttachmentOption((o) => o.setName('file').setNameLocalizations(localized(T.fileName)).setDescription(T.file.en).setDescriptionLocalizations(localized(T.file)))
    .addStringOption((o) =>
      o
        .setName('language')
        .setNameLocalizations(localized(T.languageName))
        .setDescription(T.language.en)
        .setDescriptionLocalizations(localized(T.language))
        .addChoices({ name: 'English', value: 'en', name_localizations: localized(T.english) }, ...OWN_NAMES),
    );

  // Stats read a server's cases, so they exist in servers only.
  const stats = forModerators(COMMAND.stats, T.statsName, T.stats)
    .addStringOption((o) => o.setName('since').setNameLocalizations(localized(T.sinceName)).setDescription(T.since.en).setDescriptionLocalizations(localized(T.since)).setMaxLength(10))
    .addBooleanOption((o) => o.setName('all').setNameLocalizations(localized(T.allName)).setDescription(T.all.en).setDescriptionLocalizations(localized(T.all)));

  const forget = everywhere(new SlashCommandBuilder())
    .setName(COMMAND.forget)
    .setNameLocalizations(localized(T.forgetName))
    .setDescription(T.forget.en)
    .setDescriptionLocalizations(localized(T.forget));

  // A correction of a server's cases, by its moderators: in servers only, like stats.
  const relabel = forModerators(COMMAND.relabel, T.relabelName, T.relabel)
    .addStringOption((o) => o.setName('case').setNameLocalizations(localized(T.caseName)).setDescription(T.caseOption.en).setDescriptionLocalizations(localized(T.caseOption)).setRequired(true).setMaxLength(40))
    .addStringOption((o) => o.setName('entry').setNameLocalizations(localized(T.entryName)).setDescription(T.entryOption.en).setDescriptionLocalizations(localized(T.entryOption)).setRequired(true).setMaxLength(80));

  const contextMenu = everywhere(new ContextMenuCommandBuilder())
    .setName(COMMAND.contextMenu)
    .setNameLocalizations(localized(T.contextMenu))
    .setType(ApplicationCommandType.Message);

  return [diagnose.toJSON(), stats.toJSON(), forget.toJSON(), relabel.toJSON(), contextMenu.toJSON(), configCommand().toJSON()];
}

/** Where the bot can read and post: text, announcement and forum channels. */
const CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum] as const;

/** The settings subcommands' names, as the handler routes on them. */
export const CONFIG = { show: 'show', helpers: 'helpers', watch: 'watch', optOut: 'opt-out', add: 'add', remove: 'remove', digest: 'digest', language: 'language', reset: 'reset' } as const;

/** A server's settings, by its admins (Manage Server): in servers only. */
function configCommand() {
  const named = <B extends { setName(n: string): B; setNameLocalizations(l: Record<string, string>): B; setDescription(d: string): B; setDescriptionLocalizations(l: Record<string, string>): B }>(b: B, name: Text, description: Text) =>
    b.setName(name.en).setNameLocalizations(localized(name)).setDescription(description.en).setDescriptionLocalizations(localized(description));
  const channelList = (name: Text, description: Text) => (g: SlashCommandSubcommandGroupBuilder) =>
    named(g, name, description)
      .addSubcommand((c) => named(c, T.addName, T.add).addChannelOption((o) => named(o, T.channelName, T.channel).addChannelTypes(...CHANNELS).setRequired(true)))
      .addSubcommand((c) => named(c, T.removeName, T.remove).addChannelOption((o) => named(o, T.channelName, T.channel).addChannelTypes(...CHANNELS).setRequired(true)));
  return new SlashCommandBuilder()
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setName(COMMAND.config)
    .setNameLocalizations(localized(T.configName))
    .setDescription(T.config.en)
    .setDescriptionLocalizations(localized(T.config))
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .addSubcommand((c) => named(c, T.showName, T.show))
    .addSubcommand((c) => named(c, T.helpersName, T.helpers).addRoleOption((o) => named(o, T.roleName, T.role)))
    .addSubcommandGroup(channelList(T.watchName, T.watch))
    .addSubcommandGroup(channelList(T.optOutName, T.optOut))
    .addSubcommand((c) => named(c, T.digestName, T.digest).addChannelOption((o) => named(o, T.channelName, T.digestChannel).addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement)))
    .addSubcommand((c) =>
      named(c, T.languageName, T.defaultLanguage).addStringOption((o) =>
        named(o, T.languageName, T.defaultLanguage)
          .setRequired(true)
          .addChoices({ name: 'Automatic', value: 'auto', name_localizations: localized(T.auto) }, { name: 'English', value: 'en', name_localizations: localized(T.english) }, ...OWN_NAMES),
      ),
    )
    .addSubcommand((c) =>
      named(c, T.resetName, T.reset).addStringOption((o) =>
        named(o, T.settingName, T.setting).addChoices(
          { name: 'helpers', value: 'helpers', name_localizations: localized(T.helpersName) },
          { name: 'watch', value: 'watch', name_localizations: localized(T.watchName) },
          { name: 'opt-out', value: 'optOut', name_localizations: localized(T.optOutName) },
          { name: 'digest', value: 'digest', name_localizations: localized(T.digestName) },
          { name: 'language', value: 'language', name_localizations: localized(T.languageName) },
        ),
      ),
    );
}
